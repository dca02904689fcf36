import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.ts';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { BIN, childEnv, exited } from './process.ts';

const newKey = () => randomBytes(32).toString('base64');

interface Usage {
  keys: {
    key_id: string;
    role: 'current' | 'previous' | 'missing';
    values: number;
    columns: Record<string, number>;
  }[];
}

type Ring = { current: string; previous?: string[] };

const ringEnv = (url: string, keys: Ring) => ({
  DATABASE_URL: url,
  ENCRYPTION_KEY: keys.current,
  ENCRYPTION_PREVIOUS_KEYS: (keys.previous ?? []).join(','),
});

/** `purser …` against the database with this ring, in this process; what it printed. */
async function purser(url: string, keys: Ring, argv: string[]) {
  const ctx: AppContext = await createContext(loadConfig(ringEnv(url, keys)));
  const printed: string[] = [];
  try {
    await runCommand(ctx, argv, (text) => printed.push(text));
  } finally {
    await ctx.close();
  }
  return printed.join('\n');
}

describe('purser encryption-key usage', { timeout: 60_000 }, () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('counts the values each key seals, so that a previous key is dropped only when nothing needs it', async () => {
    const database = freshDatabaseUrl();
    const a = newKey();
    const b = newKey();
    try {
      const org = JSON.parse(
        await purser(database.url, { current: a }, [
          'org',
          'create',
          '--name',
          'Keys',
          '--billing-email',
          'k@example.test',
          '--json',
        ]),
      ) as { organization_id: string };
      const webhook = (url: string) =>
        purser(database.url, { current: a }, [
          'webhook',
          'create',
          org.organization_id,
          '--mode',
          'sandbox',
          '--url',
          url,
          '--events',
          '*',
          '--json',
        ]).then((out) => (JSON.parse(out) as { id: string }).id);
      const first = await webhook('https://example.test/one');
      await webhook('https://example.test/two');
      const usage = async (keys: { current: string; previous?: string[] }) =>
        JSON.parse(await purser(database.url, keys, ['encryption-key', 'usage', '--json'])) as Usage;

      // Rotated: B seals from now on, A still opens both signing secrets.
      const rotated = await usage({ current: b, previous: [a] });
      const [idB, idA] = rotated.keys.map((k) => k.key_id);
      expect(rotated.keys).toEqual([
        { key_id: idB, role: 'current', values: 0, columns: {} },
        { key_id: idA, role: 'previous', values: 2, columns: { 'webhook_endpoints.secret_ciphertext': 2 } },
      ]);
      expect(process.exitCode).toBeUndefined();

      // A secret rolled under B moves to B; the text report says A is still needed.
      await purser(database.url, { current: b, previous: [a] }, ['webhook', 'roll-secret', first, '--json']);
      const text = await purser(database.url, { current: b, previous: [a] }, ['encryption-key', 'usage']);
      expect(text).toMatch(new RegExp(`^key ${idB}  ENCRYPTION_KEY +1 values$`, 'm'));
      expect(text).toMatch(
        new RegExp(
          `^key ${idA}  ENCRYPTION_PREVIOUS_KEYS +1 values  \\(webhook_endpoints.secret_ciphertext 1\\)$`,
          'm',
        ),
      );
      expect(text).toContain(`${idA} still opens 1 values: keep it in ENCRYPTION_PREVIOUS_KEYS.`);

      // Dropping A too early: the value it sealed is under a key that is not set, and the command fails.
      const dropped = await usage({ current: b });
      expect(dropped.keys.map((k) => [k.role, k.values])).toEqual([
        ['current', 1],
        ['missing', 1],
      ]);
      expect(dropped.keys[1]?.key_id).toBe(idA);
      expect(process.exitCode).toBe(1);
    } finally {
      await database.drop();
    }
  });

  it('says a previous key can go once nothing is sealed under it', async () => {
    const database = freshDatabaseUrl();
    const a = newKey();
    const b = newKey();
    try {
      const text = await purser(database.url, { current: b, previous: [a] }, ['encryption-key', 'usage']);
      expect(text).toMatch(
        /^No value is sealed under [0-9a-f]{8}: it can be removed from ENCRYPTION_PREVIOUS_KEYS\.$/m,
      );
      expect(process.exitCode).toBeUndefined();
    } finally {
      await database.drop();
    }
  });
});

/** An organization with `webhooks` signing secrets and `messages` outbox messages, sealed under `key`. */
async function sealedValues(url: string, key: string, counts: { webhooks: number; messages: number }) {
  const org = JSON.parse(
    await purser(url, { current: key }, [
      'org',
      'create',
      '--name',
      'Keys',
      '--billing-email',
      'k@example.test',
      '--json',
    ]),
  ) as { organization_id: string };
  const ctx = await createContext(loadConfig(ringEnv(url, { current: key })));
  try {
    for (let i = 0; i < counts.webhooks; i++) {
      await runCommand(
        ctx,
        [
          'webhook',
          'create',
          org.organization_id,
          '--mode',
          'sandbox',
          '--url',
          `https://example.test/${i}`,
          '--events',
          '*',
        ],
        () => {},
      );
    }
    // Messages kept in the outbox: `purser outbox` opens them, so it shows whether they still read.
    for (let i = 0; i < counts.messages; i++) {
      await ctx.notifications.sendEmail(
        { organizationId: org.organization_id, livemode: false },
        { to: `person${i}@example.test`, subject: `Subject ${i}`, text: `Body ${i}` },
      );
    }
  } finally {
    await ctx.close();
  }
}

const outbox = (url: string, keys: Ring) => purser(url, keys, ['outbox', '--limit', '1000', '--json']);

describe('purser encryption-key reseal', { timeout: 120_000 }, () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('seals every value again under the new key, so the old key can be removed; a second run has nothing to do', async () => {
    const database = freshDatabaseUrl();
    const a = newKey();
    const b = newKey();
    try {
      await sealedValues(database.url, a, { webhooks: 3, messages: 4 });
      const before = await outbox(database.url, { current: a });

      const out = await purser(database.url, { current: b, previous: [a] }, [
        'encryption-key',
        'reseal',
        '--batch-size',
        '2',
      ]);
      const [idB, idA] = (
        JSON.parse(
          await purser(database.url, { current: b, previous: [a] }, ['encryption-key', 'usage', '--json']),
        ) as Usage
      ).keys.map((k) => k.key_id);
      expect(out.split('\n')).toEqual([
        `Re-sealing under ENCRYPTION_KEY ${idB}.`,
        'sent_messages.subject: 2 of 4',
        'sent_messages.subject: 4 of 4',
        'sent_messages.body: 2 of 4',
        'sent_messages.body: 4 of 4',
        'webhook_endpoints.secret_ciphertext: 2 of 3',
        'webhook_endpoints.secret_ciphertext: 3 of 3',
        `Re-sealed 11 values under ${idB}.`,
        'Nothing is sealed under another key: ENCRYPTION_PREVIOUS_KEYS can be emptied.',
      ]);
      expect(process.exitCode).toBeUndefined();

      // Without the old key everything still opens: the usage finds no value under a missing key.
      const usage = JSON.parse(
        await purser(database.url, { current: b }, ['encryption-key', 'usage', '--json']),
      ) as Usage;
      expect(usage.keys).toEqual([
        {
          key_id: idB,
          role: 'current',
          values: 11,
          columns: {
            'sent_messages.subject': 4,
            'sent_messages.body': 4,
            'webhook_endpoints.secret_ciphertext': 3,
          },
        },
      ]);
      expect(idA).not.toBe(idB);
      expect(await outbox(database.url, { current: b })).toBe(before);

      const again = await purser(database.url, { current: b }, ['encryption-key', 'reseal']);
      expect(again).toContain(`Re-sealed 0 values under ${idB}.`);
      expect(again).toContain('Nothing is sealed under another key');
      expect(process.exitCode).toBeUndefined();
    } finally {
      await database.drop();
    }
  });

  it('leaves a value it cannot open as it was, names it and exits 1; with its key in the ring a second run finishes', async () => {
    const database = freshDatabaseUrl();
    const a = newKey();
    const b = newKey();
    const c = newKey();
    try {
      await sealedValues(database.url, a, { webhooks: 0, messages: 2 });
      // One signing secret under C, a key the operator forgot to list.
      await sealedValues(database.url, c, { webhooks: 1, messages: 0 });
      const out = await purser(database.url, { current: b, previous: [a] }, ['encryption-key', 'reseal']);
      expect(out).toContain('Re-sealed 4 values under');
      expect(out).toMatch(
        /^Could not open webhook_endpoints\.secret_ciphertext id=wh_\w+ \(under [0-9a-f]{8}\): sealed under unknown key [0-9a-f]{8}; set it in ENCRYPTION_PREVIOUS_KEYS; left as it was\.$/m,
      );
      expect(out).toMatch(/^Still under [0-9a-f]{8}: webhook_endpoints\.secret_ciphertext 1 values\.$/m);
      expect(out).toContain('Keep ENCRYPTION_PREVIOUS_KEYS until a run ends with nothing under another key.');
      expect(process.exitCode).toBe(1);
      process.exitCode = undefined;

      const fixed = await purser(database.url, { current: b, previous: [a, c] }, [
        'encryption-key',
        'reseal',
      ]);
      expect(fixed).toContain('Re-sealed 1 values under');
      expect(fixed).toContain('Nothing is sealed under another key');
      expect(process.exitCode).toBeUndefined();
    } finally {
      await database.drop();
    }
  });

  it('killed midway loses nothing: every value still opens, and the next run finishes the rest', async () => {
    const database = freshDatabaseUrl();
    const a = newKey();
    const b = newKey();
    try {
      await sealedValues(database.url, a, { webhooks: 0, messages: 60 });
      const before = await outbox(database.url, { current: a });
      const child = spawn(process.execPath, [BIN, 'encryption-key', 'reseal', '--batch-size', '1'], {
        env: childEnv(ringEnv(database.url, { current: b, previous: [a] })),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let printed = '';
      child.stdout.on('data', (chunk) => {
        printed += chunk;
        // Killed at its first progress line, with most values still under A.
        if (/ of \d+/.test(printed)) child.kill('SIGKILL');
      });
      await exited(child);
      expect(printed).not.toContain('Re-sealed');

      expect(await outbox(database.url, { current: b, previous: [a] })).toBe(before);
      const rest = await purser(database.url, { current: b, previous: [a] }, ['encryption-key', 'reseal']);
      expect(rest).toMatch(/^Re-sealed \d+ values under/m);
      expect(rest).toContain('Nothing is sealed under another key');
      expect(process.exitCode).toBeUndefined();
      expect(await outbox(database.url, { current: b })).toBe(before);
    } finally {
      await database.drop();
    }
  });
});

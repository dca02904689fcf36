import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.ts';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';

const newKey = () => randomBytes(32).toString('base64');

interface Usage {
  keys: {
    key_id: string;
    role: 'current' | 'previous' | 'missing';
    values: number;
    columns: Record<string, number>;
  }[];
}

/** `purser …` against the database with this ring, in this process; what it printed. */
async function purser(url: string, keys: { current: string; previous?: string[] }, argv: string[]) {
  const ctx: AppContext = await createContext(
    loadConfig({
      DATABASE_URL: url,
      ENCRYPTION_KEY: keys.current,
      ENCRYPTION_PREVIOUS_KEYS: (keys.previous ?? []).join(','),
    }),
  );
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

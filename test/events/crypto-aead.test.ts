import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AesGcmSealer, loadSealer } from '../../src/core/sealer.ts';
import { migrateToLatest, openDatabase } from '../../src/db/index.ts';
import { instanceSecret, storedInstanceSecret } from '../../src/db/instance-secrets.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';

describe('AES-256-GCM sealing', () => {
  it('seals and opens, with a fresh IV each time and the key id in the value', () => {
    const sealer = new AesGcmSealer(randomBytes(32));
    const a = sealer.seal('whsec_abc', 'wh_1');
    const b = sealer.seal('whsec_abc', 'wh_1');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).toBe(sealer.keyId);
    expect(sealer.open(a, 'wh_1')).toBe('whsec_abc');
  });

  it('refuses a value moved to another row, altered, or sealed under an unknown key', () => {
    const sealer = new AesGcmSealer(randomBytes(32));
    const sealed = sealer.seal('whsec_abc', 'wh_1');
    expect(() => sealer.open(sealed, 'wh_2')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => sealer.open(parts.join('.'), 'wh_1')).toThrow();
    expect(() => new AesGcmSealer(randomBytes(32)).open(sealed, 'wh_1')).toThrow(/unknown key/);
  });

  it('rotates: a new key seals, the previous one still opens what it sealed', () => {
    const oldKey = randomBytes(32);
    const sealed = new AesGcmSealer(oldKey).seal('whsec_old', 'wh_1');
    const rotated = new AesGcmSealer(randomBytes(32), [oldKey]);
    expect(rotated.open(sealed, 'wh_1')).toBe('whsec_old');
    expect(rotated.seal('x', 'wh_1').split('.')[1]).not.toBe(sealed.split('.')[1]);
  });

  it('without ENCRYPTION_KEY on SQLite, generates a key file beside the database once, with a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'purser-sealer-'));
    try {
      const warnings: string[] = [];
      const settings = {
        encryptionKey: null,
        encryptionPreviousKeys: [],
        databaseUrl: `sqlite:${join(dir, 'p.db')}`,
        production: false,
      };
      const unused = () => Promise.reject(new Error('SQLite keeps its key in a file'));
      const first = await loadSealer(settings, unused, (w) => warnings.push(w));
      const second = await loadSealer(settings, unused, (w) => warnings.push(w));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/ENCRYPTION_KEY/);
      expect(second.open(first.seal('s', 'r'), 'r')).toBe('s');
      expect(Buffer.from(readFileSync(join(dir, 'p.db.key'), 'utf8').trim(), 'base64')).toHaveLength(32);
      expect(statSync(join(dir, 'p.db.key')).mode & 0o077).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start without ENCRYPTION_KEY on PostgreSQL or in production, saying how to make one', async () => {
    const database = freshDatabaseUrl();
    const handle = await openDatabase(database.url);
    try {
      await migrateToLatest(handle);
      const noKey = { encryptionKey: null, encryptionPreviousKeys: [] };
      const stored = () => storedInstanceSecret(handle.db, 'encryption_key');
      const postgres = { ...noKey, databaseUrl: 'postgres://db/purser', production: false };
      await expect(loadSealer(postgres, stored, () => {})).rejects.toThrow(/openssl rand -base64 32/);
      const production = { ...noKey, databaseUrl: 'sqlite:/tmp/never/p.db', production: true };
      await expect(loadSealer(production, stored, () => {})).rejects.toThrow(/NODE_ENV=production/);
      // A key an earlier version generated inside the database: the refusal says how to read it out.
      await instanceSecret(handle.db, 'encryption_key', () => randomBytes(32).toString('base64'), 0);
      await expect(loadSealer(postgres, stored, () => {})).rejects.toThrow(
        /select value from instance_secrets/,
      );
    } finally {
      await handle.close();
      await database.drop();
    }
  });

  it('refuses a configured key that is not 32 bytes', async () => {
    await expect(
      loadSealer(
        {
          encryptionKey: 'c2hvcnQ=',
          encryptionPreviousKeys: [],
          databaseUrl: 'sqlite::memory:',
          production: false,
        },
        () => Promise.reject(new Error('not used')),
        () => {},
      ),
    ).rejects.toThrow(/32 bytes/);
  });
});

import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { ConfigError } from './env.ts';
import { pooledRandomBytes } from './ids.ts';

/**
 * AES-256-GCM for data that must be read back (webhook signing secrets, later card numbers and
 * provider tokens). A sealed value is `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url parts): the
 * key id names the key that sealed it, so keys can rotate while old values still open. The
 * additional data binds a value to its row (e.g. the endpoint id), so a ciphertext copied onto
 * another row does not open.
 */
export class AesGcmSealer {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  /** `current` seals; `previous` keys only open what they sealed before a rotation. */
  constructor(current: Buffer, previous: Buffer[] = []) {
    this.currentId = keyId(current);
    for (const key of [current, ...previous]) {
      if (key.length !== 32) throw new Error('an AES-256-GCM key is 32 bytes');
      this.keys.set(keyId(key), key);
    }
  }

  get keyId(): string {
    return this.currentId;
  }

  /** The ids of every key of the ring, the current one first. */
  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  /** A key for another purpose (e.g. signing links), derived from the current key (HKDF, RFC 5869). */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(
      hkdfSync('sha256', this.keys.get(this.currentId)!, Buffer.alloc(0), `purser:${purpose}`, 32),
    );
  }

  /**
   * The same derived key under every key of the ring, current first: for keyed digests that must
   * still match what was computed before a rotation (the key id says which key each came from).
   */
  derivedKeys(purpose: string): { keyId: string; key: Buffer }[] {
    return [...this.keys].map(([id, key]) => ({
      keyId: id,
      key: Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `purser:${purpose}`, 32)),
    }));
  }

  seal(plaintext: string, additionalData: string): string {
    const key = this.keys.get(this.currentId)!;
    // NIST SP 800-38D §8.2.2: a random 96-bit IV per message (from the pool ids draw on: a call to
    // the system's generator per IV was about half of a seal).
    const iv = pooledRandomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(additionalData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return ['v1', this.currentId, b64(iv), b64(ciphertext), b64(tag)].join('.');
  }

  /** Throws when the value is malformed, sealed under an unknown key, or altered. */
  open(sealed: string, additionalData: string): string {
    const [version, id, iv, ciphertext, tag] = sealed.split('.');
    if (version !== 'v1' || !id || iv === undefined || ciphertext === undefined || tag === undefined) {
      throw new Error('not a sealed value');
    }
    const key = this.keys.get(id);
    if (!key) throw new Error(`sealed under unknown key ${id}; set it in ENCRYPTION_PREVIOUS_KEYS`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(additionalData, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');

/** A short public name for a key: the first 8 hex digits of its SHA-256. */
function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function parseKey(name: string, base64: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32)
    throw new Error(`${name} must be 32 bytes, base64-encoded (openssl rand -base64 32)`);
  return key;
}

/** Why the service will not start without `ENCRYPTION_KEY`, and how to make one. */
export class MissingEncryptionKey extends ConfigError {}

const HOW_TO_MAKE_ONE = 'Generate one with `openssl rand -base64 32` and set it as ENCRYPTION_KEY';

/**
 * The service's AEAD from `ENCRYPTION_KEY`. Only the zero-configuration local start (SQLite, not
 * `NODE_ENV=production`) may go without it: a key is then generated once, with a warning, in a file
 * beside the database (`<db>.key`, mode 0600). On PostgreSQL or in production a missing key refuses
 * the start: a key kept inside the database it protects protects nothing. A PostgreSQL database
 * that an earlier version gave a generated key (`storedKey`) is told how to read it out.
 */
export async function loadSealer(
  settings: {
    encryptionKey: string | null;
    encryptionPreviousKeys: string[];
    databaseUrl: string;
    production: boolean;
  },
  storedKey: () => Promise<string | null>,
  warn: (message: string) => void,
): Promise<AesGcmSealer> {
  const previous = settings.encryptionPreviousKeys.map((k) => parseKey('ENCRYPTION_PREVIOUS_KEYS', k));
  if (settings.encryptionKey)
    return new AesGcmSealer(parseKey('ENCRYPTION_KEY', settings.encryptionKey), previous);
  const sqlitePath = settings.databaseUrl.startsWith('sqlite:')
    ? settings.databaseUrl.slice('sqlite:'.length)
    : null;
  if (sqlitePath === null) {
    // A database not yet migrated has no stored key to name (and no table to read it from).
    if ((await storedKey().catch(() => null)) !== null) {
      throw new MissingEncryptionKey(
        'ENCRYPTION_KEY is not set. This database holds the key an earlier version generated; move it out ' +
          'of the database and set it as ENCRYPTION_KEY: `psql "$DATABASE_URL" -Atc "select value from instance_secrets where name = \'encryption_key\'"`.',
      );
    }
    throw new MissingEncryptionKey(`ENCRYPTION_KEY is required with PostgreSQL. ${HOW_TO_MAKE_ONE}.`);
  }
  if (settings.production) {
    throw new MissingEncryptionKey(
      `ENCRYPTION_KEY is required with NODE_ENV=production. ${HOW_TO_MAKE_ONE}.`,
    );
  }
  if (sqlitePath === '' || sqlitePath === ':memory:') return new AesGcmSealer(randomBytes(32), previous);
  const file = `${sqlitePath}.key`;
  try {
    // `wx`: when two processes start together, exactly one writes the key and both read it.
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    warn(`ENCRYPTION_KEY is not set: generated a key in ${file}. Set ENCRYPTION_KEY in production.`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return new AesGcmSealer(parseKey(file, readFileSync(file, 'utf8')), previous);
}

/** What a domain needs of the sealer: seal, open, and the key ids (for re-sealing). */
export type Sealer = Pick<AesGcmSealer, 'seal' | 'open' | 'keyId' | 'keyIds'>;

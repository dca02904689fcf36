import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from the system's CSPRNG a pool at a time, as `crypto.randomUUID` does: one
 * call per id costs more than the id's other work on hot paths (an authorization makes four).
 * Every byte is used once.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++] as number;
}

/** Random base62 text carrying `bytes * 8` bits of entropy (rejection sampling keeps it unbiased). */
export function randomToken(bytes = 16): string {
  const length = Math.ceil((bytes * 8) / Math.log2(62));
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 248 = 62 * 4: values at or above it would bias the first characters.
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

/**
 * A prefixed, unguessable identifier: `org_…`, `usr_…`, `evt_…`. Eight characters of the creation
 * time in milliseconds, then 128 bits of randomness. Ids made later sort after (base62 in ASCII
 * order), so a new row's primary-key entry lands on the index's last page instead of a random one:
 * fewer pages written per commit.
 */
export function newId(prefix: string): string {
  return `${prefix}_${timeOrdered()}${randomToken(16)}`;
}

/** The time in milliseconds as eight base62 digits (enough until the year 8900). */
function timeOrdered(): string {
  let t = Date.now();
  let out = '';
  for (let i = 0; i < 8; i++) {
    out = ALPHABET[t % 62] + out;
    t = Math.floor(t / 62);
  }
  return out;
}

/** A prefixed secret (256 bits of randomness), e.g. `sk_test_…`, `whsec_…`. */
export function newSecret(prefix: string): string {
  return `${prefix}${randomToken(32)}`;
}

import { randomBytes, randomFillSync } from 'node:crypto';

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

/** `count` random bytes (at most the pool's size) from the same pool, in a buffer of their own. */
export function pooledRandomBytes(count: number): Buffer {
  if (!Number.isInteger(count) || count < 0 || count > pool.length)
    throw new RangeError(`pooledRandomBytes takes 0 to ${pool.length} bytes, not ${count}`);
  if (poolOffset + count > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + count));
  poolOffset += count;
  return bytes;
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
 * time in milliseconds, three of a sequence within that millisecond, then 112 bits of randomness.
 * Ids this process makes later sort after (base62 in ASCII order), within a millisecond too: the
 * events of one transaction list in the order they were written, and a new row's primary-key entry
 * lands on the index's last page instead of a random one (fewer pages written per commit).
 */
export function newId(prefix: string): string {
  return `${prefix}_${timeOrdered()}${randomToken(14)}`;
}

let lastMillisecond = -1;
let sequence = 0;
const SEQUENCE_DIGITS = 3;
const SEQUENCES = 62 ** SEQUENCE_DIGITS;

/** The time in milliseconds as eight base62 digits (enough until the year 8900), then the sequence. */
function timeOrdered(): string {
  let now = Date.now();
  // A clock stepped back keeps the last millisecond, so that ids still sort in the order made; past
  // 238,328 ids in one millisecond the next one is borrowed.
  if (now <= lastMillisecond) {
    sequence += 1;
    if (sequence === SEQUENCES) {
      lastMillisecond += 1;
      sequence = 0;
    }
    now = lastMillisecond;
  } else {
    lastMillisecond = now;
    sequence = 0;
  }
  return base62(now, 8) + base62(sequence, SEQUENCE_DIGITS);
}

function base62(value: number, digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/**
 * A generator of `<prefix>_<32 hex>` ids: the time in milliseconds (12), a counter (8) and a random
 * tag of the generator (12). Unique across processes, cheaper than a random id per call, and in time
 * order, so that an index on them takes new entries at one end instead of all over. Not secret.
 *
 * Every request takes one (its request id), so an id is two pieces made beforehand: the prefix, the
 * time and the counter's upper bytes, made again once a millisecond or 256 ids; the counter's last
 * byte with the tag, from a table of the generator. `Number.prototype.toString(16)` per id cost
 * more than a microsecond.
 */
export function sequentialIds(prefix: string): () => string {
  const tag = randomBytes(6).toString('hex');
  const lastByteAndTag = HEX_BYTES.map((byte) => byte + tag);
  let counter = 0;
  let millisecond = -1;
  let head = '';
  return () => {
    counter = (counter + 1) >>> 0;
    const now = Date.now();
    if (now !== millisecond || (counter & 0xff) === 0) {
      millisecond = now;
      head = `${prefix}_${now.toString(16).padStart(12, '0')}${HEX_BYTES[counter >>> 24]}${HEX_BYTES[(counter >>> 16) & 0xff]}${HEX_BYTES[(counter >>> 8) & 0xff]}`;
    }
    return head + lastByteAndTag[counter & 0xff];
  };
}

/** Each byte's two hex digits, `00` to `ff`. */
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** A prefixed secret (256 bits of randomness), e.g. `sk_test_…`, `whsec_…`. */
export function newSecret(prefix: string): string {
  return `${prefix}${randomToken(32)}`;
}

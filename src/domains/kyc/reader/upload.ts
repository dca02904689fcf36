/**
 * An upload's JSON body, read off the API's thread. A document photo or a face scan's frames are
 * nearly all of an upload's bytes, as base64 text: parsing that text, checking it (the text guard,
 * the schema's length count) and decoding it cost the API's thread about 10 ms a megabyte, a stall
 * for every other request. Here the body is parsed as the API parses JSON (secure-json-parse,
 * prototype keys refused) and each photo decoded; the API's thread then gets the body with each
 * decoded photo's text replaced by a short stand-in, and the bytes beside it. Pure: no HTTP; the
 * reader pool runs it on a thread of its own (pool.ts), the API's routes use it (upload-body.ts).
 */
import secureJson from 'secure-json-parse';

/** A body field holding a photo as base64 text: a string, or a list of strings (face-scan frames). */
export interface PhotoField {
  name: string;
  /** The longest text the field's schema lets through: a longer photo keeps its text for validation to refuse. */
  maxLength: number;
}

export interface UploadBodyTask {
  /** The body as received (UTF-8 JSON). */
  bytes: Uint8Array;
  photos: PhotoField[];
  /** Keep each photo's text in the body too (an Idempotency-Key's digest covers the body as sent). */
  keepText: boolean;
}

export type UploadBody =
  /** Not JSON, or JSON with a prototype key: refused as the API refuses any such body. */
  | { ok: false }
  /**
   * The parsed body, and the bytes of each photo that decoded, by field (`image`, `frames.0`, …).
   * In the body, unless `keepText`, each of those photos' text is `PHOTO_STAND_IN`; a photo that
   * did not decode keeps its text, for the API to refuse as it refuses any.
   */
  | { ok: true; body: unknown; photos: Record<string, Buffer> };

/**
 * What validation sees in place of a decoded photo. A photo field's schema only bounds its length
 * (`photoFields` in upload-body.ts holds it to that), and the photo it stands for fitted them: it
 * decoded, so it was not empty and held no text the guard refuses, and it was no longer than
 * `maxLength`.
 */
export const PHOTO_STAND_IN = '(photo)';

const DATA_URL_PREFIX = /^data:[\w/+.-]+;base64,/;
const WHITESPACE = /\s+/g;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const URL_SAFE = /[-_]/;

/**
 * Base64 (standard or URL-safe, an optional `data:` prefix and line breaks allowed) to bytes; null
 * when the text is not base64.
 */
export function base64Bytes(value: string): Buffer | null {
  const body = value.replace(DATA_URL_PREFIX, '').replace(WHITESPACE, '');
  if (body === '' || !BASE64.test(body) || body.length % 4 === 1) return null;
  return Buffer.from(body, URL_SAFE.test(body) ? 'base64url' : 'base64');
}

/** Parses an upload's body and decodes its photos (see `UploadBody`). */
export function readUploadBody(task: UploadBodyTask): UploadBody {
  let body: unknown;
  try {
    const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
    body = secureJson.parse(bytes.toString('utf8'), { protoAction: 'error', constructorAction: 'error' });
  } catch {
    return { ok: false };
  }
  const photos: Record<string, Buffer> = {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ok: true, body, photos };
  const fields = body as Record<string, unknown>;
  const decode = (text: unknown, key: string, maxLength: number): unknown => {
    if (typeof text !== 'string' || text.length > maxLength) return text;
    const bytes = base64Bytes(text);
    if (!bytes) return text;
    photos[key] = bytes;
    return task.keepText ? text : PHOTO_STAND_IN;
  };
  for (const { name, maxLength } of task.photos) {
    if (!Object.hasOwn(fields, name)) continue;
    const value = fields[name];
    if (Array.isArray(value)) fields[name] = value.map((item, i) => decode(item, `${name}.${i}`, maxLength));
    else fields[name] = decode(value, name, maxLength);
  }
  return { ok: true, body, photos };
}

import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preParsingHookHandler,
  preValidationHookHandler,
} from 'fastify';
import { refuseOtherCharsets } from './edge-errors.ts';
import { ApiError } from './errors.ts';

/**
 * Text the service refuses wherever it comes from: U+0000 (PostgreSQL cannot store it in `text`,
 * SQLite can, so letting it through makes the two databases disagree) and unpaired UTF-16
 * surrogates (no UTF-8 form: the drivers store U+FFFD instead, silently altering the value).
 */
const BAD_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Headers whose values the service keeps or compares as data (not only routing metadata). */
const DATA_HEADERS = ['idempotency-key', 'x-request-id'] as const;

const PROBLEM = 'must not contain NUL characters or unpaired UTF-16 surrogates';
const ENCODING_PROBLEM = 'is not valid percent-encoded UTF-8';

export function isBadText(value: string): boolean {
  return BAD_TEXT.test(value);
}

/**
 * Structures nested deeper than this are refused before anything walks them: no route takes one,
 * and a walk one level per call (a validator, a serializer) would run out of stack on thousands.
 */
const MAX_DEPTH = 64;
const DEPTH_PROBLEM = `is nested more than ${MAX_DEPTH} levels deep`;

/**
 * The first bad string under `value` (keys included) as `[field, problem]`: the field named as
 * validation names it (`fields.name`, `origins.1`; `source` for the value itself), or a structure
 * nested too deep. Walked with a stack of its own, so any depth is answered, never a crash.
 */
export function findBadText(value: unknown, source: string): [string, string] | null {
  // Nearly all requests are sound: a walk that allocates nothing says so, and only a request that
  // is not pays for naming the field.
  if (isSound(value, 0)) return null;
  const stack: { value: unknown; path: string; depth: number; key: string | null }[] = [
    { value, path: '', depth: 0, key: null },
  ];
  const named = (path: string) => path || source;
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    if (item.key !== null && isBadText(item.key)) return [named(item.path), PROBLEM];
    if (typeof item.value === 'string') {
      if (isBadText(item.value)) return [named(item.path), PROBLEM];
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_DEPTH) return [named(item.path), DEPTH_PROBLEM];
    const array = Array.isArray(item.value);
    const entries = array
      ? (item.value as unknown[]).map((inner, i) => [String(i), inner] as const)
      : Object.entries(item.value);
    // Pushed last to first, so that the first field is looked at first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i] as readonly [string, unknown];
      const name = array ? key : safeName(key);
      stack.push({
        value: inner,
        path: item.path ? `${item.path}.${name}` : name,
        depth: item.depth + 1,
        key: array ? null : key,
      });
    }
  }
  return null;
}

/** True when no string under `value` (keys included) is bad and nothing is nested too deep. */
function isSound(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return !isBadText(value);
  if (value === null || typeof value !== 'object') return true;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const inner of value) if (!isSound(inner, depth + 1)) return false;
    return true;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (isBadText(key) || !isSound((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** A bad key is named without its bad characters, so the error body itself stays valid text. */
function safeName(key: string): string {
  return key.replace(new RegExp(BAD_TEXT.source, 'g'), '\uFFFD');
}

/**
 * The raw query string, checked before anyone reads it: the parser keeps a malformed escape
 * (`%zz`, `%ED%A0%80`, a lone `%C3`) as literal text, which would then be stored or compared as if
 * the client had meant it. Returns the offending parameter's field path.
 */
export function findBadQuery(url: string): string | null {
  const at = url.indexOf('?');
  return at < 0 ? null : findBadEncoding(url.slice(at + 1), 'query');
}

/** The first pair of a form-encoded string whose escapes are not UTF-8, by its name (`where` if none). */
function findBadEncoding(form: string, where: 'query' | 'body'): string | null {
  for (const pair of form.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const name = decodeFormComponent(rawName);
    if (name === null) return rawName.replace(/%/g, '') || where;
    if (decodeFormComponent(rawValue) === null) return safeName(name) || where;
  }
  return null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Form-encoded bodies (`application/x-www-form-urlencoded`), parsed in the calling plugin's scope
 * with the same rule as query strings: raw bytes that are not UTF-8 and escapes that do not decode
 * to UTF-8 are `400 invalid_request` naming the field, where a lenient parser would read them as
 * U+FFFD or literal text. Repeated names become arrays, as with the query string.
 */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    (_request, raw, done) => {
      let form: string;
      try {
        form = utf8.decode(raw as Buffer);
      } catch {
        return done(refusal('body', 'is not UTF-8'), undefined);
      }
      const bad = findBadEncoding(form, 'body');
      if (bad) return done(refusal(bad, ENCODING_PROBLEM), undefined);
      done(null, parseForm(form));
    },
  );
}

function parseForm(form: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const pair of form.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeFormComponent(eq < 0 ? pair : pair.slice(0, eq)) as string;
    const value = decodeFormComponent(eq < 0 ? '' : pair.slice(eq + 1)) as string;
    const earlier = fields[name];
    fields[name] = earlier === undefined ? value : [earlier, value].flat();
  }
  return fields;
}

function decodeFormComponent(raw: string): string | null {
  try {
    // decodeURIComponent refuses bad escapes and bytes that are not UTF-8 (including encoded surrogates).
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * For routes that take their JSON body unparsed (signed webhooks verify the bytes as sent): the
 * refusals the edge gives any other JSON body, a body that is not JSON and bad text in its strings.
 * Null when the body is sound.
 */
export function rawJsonRefusal(raw: string): ApiError | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return new ApiError(400, 'invalid_request', 'The body is not valid JSON.');
  }
  const bad = findBadText(parsed, 'body');
  return bad ? refusal(...bad) : null;
}

function refusal(field: string, problem: string): ApiError {
  return new ApiError(400, 'invalid_request', `${field} ${problem}.`, { fieldErrors: { [field]: problem } });
}

/** Where a request's text is bad, as `[field, problem]`, or null. */
export function checkRequestText(request: FastifyRequest): [string, string] | null {
  const badQuery = findBadQuery(request.url);
  if (badQuery) return [badQuery, ENCODING_PROBLEM];
  const header = badHeader(request);
  return (
    findBadText(request.params, 'params') ??
    findBadText(request.query, 'query') ??
    findBadText(request.body, 'body') ??
    (header ? [header, PROBLEM] : null)
  );
}

function badHeader(request: FastifyRequest): string | null {
  for (const name of DATA_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string' && isBadText(value)) return name;
  }
  // HTTP Basic credentials are data too (the token endpoint looks the client id up).
  const authorization = request.headers.authorization;
  if (authorization && /^Basic /i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const parts = decoded.split(':').map(decodeFormComponent);
    if (parts.some((part) => part !== null && isBadText(part))) return 'authorization';
  }
  return null;
}

/**
 * One check at the edge for every route: after parsing, before validation and handlers, every
 * string of the path parameters, query, body (keys too) and data headers is checked, and a bad one
 * is `400 invalid_request` naming the field (the OAuth body on the token endpoint, through the
 * error handler). Nothing below ever sees such text, on either database.
 *
 * Returns the check as a hook, for what no route matches (the not-found handler's `preValidation`):
 * it is attached to each route, not to the app, so that a GET pays no phase for it.
 */
export function installTextGuard(app: FastifyInstance): preValidationHookHandler {
  // Only a body has a charset, and only a method that takes one has its body read: GET and HEAD
  // (nearly every request) skip the check and its phase. A request without a media type skips it too.
  const charset: preParsingHookHandler = (request, _reply, payload, done) => {
    const type = request.headers['content-type'];
    done(type === undefined ? null : (refuseOtherCharsets(type) ?? null), payload);
  };
  const refuseBadText = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const bad = checkRequestText(request);
    done(bad ? refusal(bad[0], bad[1]) : undefined);
  };
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (methods.every((method) => BODYLESS_METHODS.has(method))) {
      // A request without a body has all its text once it is routed: the check ends the route's
      // onRequest hooks (after its guard, as before validation), and a GET runs no preValidation phase.
      route.onRequest = [...[route.onRequest ?? []].flat(), refuseBadText];
      return;
    }
    route.preParsing = [charset, ...(route.preParsing ? [route.preParsing].flat() : [])];
    route.preValidation = [refuseBadText, ...[route.preValidation ?? []].flat()];
  });
  return refuseBadText;
}

/** Methods whose body Fastify never reads. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'TRACE']);

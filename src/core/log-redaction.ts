import type { FastifyRequest } from 'fastify';

/**
 * What the request log says about a request, without the link tokens and secrets that paths and
 * query strings can carry (hosted verification links put their token in the path). A matched
 * request is logged by its route template (`/kyc/verify/:token`) with its parameters, those whose
 * name suggests a credential redacted; a query string keeps its names, never its values; a path no
 * route matched keeps only its short segments.
 */
export function requestLogFields(request: FastifyRequest): Record<string, unknown> {
  const [path = '/', query] = request.url.split('?', 2);
  const template = request.is404 ? undefined : request.routeOptions?.url;
  return {
    method: request.method,
    url: (template ?? redactPath(path)) + (query === undefined ? '' : `?${redactQuery(query)}`),
    ...(template ? { params: redactParams(request.params) } : {}),
    host: request.host,
    remoteAddress: request.ip,
  };
}

const SECRET_NAME = /token|secret|session|code|key|password|signature/i;
/** Ids are short (a prefix and 22 characters); anything longer in an unknown path may be a token. */
const LONG_SEGMENT = 32;

function redactParams(params: unknown): Record<string, string> {
  const safe: Record<string, string> = {};
  for (const [name, value] of Object.entries((params ?? {}) as Record<string, unknown>)) {
    safe[name] = SECRET_NAME.test(name) ? '[redacted]' : String(value).slice(0, 64);
  }
  return safe;
}

export function redactPath(path: string): string {
  // Most paths are shorter than one long segment: nothing to redact, nothing to split.
  if (path.length < LONG_SEGMENT) return path;
  return path
    .split('/')
    .map((segment) => (segment.length >= LONG_SEGMENT ? '[redacted]' : segment))
    .join('/');
}

export function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => `${pair.split('=', 1)[0]}=[redacted]`)
    .join('&');
}

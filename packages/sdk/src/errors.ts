import type { components } from './schema.d.ts';

/** The v2 error body (spec §7): every error of the platform API. */
export type ErrorBody = components['schemas']['ErrorBody'];
/** The OAuth error body of the token endpoint (RFC 6749 §5.2). */
export type OAuthErrorBody = components['schemas']['OAuthErrorBody'];

/**
 * A non-2xx answer, with the spec's error body: `code` is the stable, machine-readable part to branch
 * on (listed at /docs/errors); `message` is for developers. The token endpoint's OAuth body maps to
 * the same fields (`error` → `code`, `error_description` → `message`).
 */
export class PurserError extends Error {
  override readonly name: string = 'PurserError';
  readonly status: number;
  readonly code: string;
  readonly docs: string | null;
  readonly fieldErrors: Record<string, string>;
  readonly warnings: string[];
  /** The `X-Request-Id` of the answer: quote it when asking the operator about a failure. */
  readonly requestId: string | null;
  /** The body as received (an `ErrorBody`, an `OAuthErrorBody`, or whatever a proxy sent). */
  readonly body: unknown;

  constructor(status: number, body: unknown, requestId: string | null = null) {
    const v2 = isErrorBody(body) ? body.error : null;
    const oauth = isOAuthErrorBody(body) ? body : null;
    super(v2?.message ?? oauth?.error_description ?? `The service answered HTTP ${status}.`);
    this.status = status;
    this.code = errorCode(status, body);
    this.docs = v2?.docs ?? null;
    this.fieldErrors = v2?.field_errors ?? {};
    this.warnings = v2?.warnings ?? [];
    this.requestId = requestId;
    this.body = body;
  }
}

/** The body's code (`error.code`, or the OAuth `error`), else `http_<status>`. */
export function errorCode(status: number, body: unknown): string {
  if (isErrorBody(body)) return body.error.code;
  if (isOAuthErrorBody(body)) return body.error;
  return `http_${status}`;
}

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as { error?: unknown } | null)?.error;
  return (
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
  );
}

function isOAuthErrorBody(body: unknown): body is OAuthErrorBody {
  return typeof (body as { error?: unknown } | null)?.error === 'string';
}

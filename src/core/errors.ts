/**
 * The one error type of the service. Thrown anywhere; rendered by the error handler as the
 * v2 body `{ error: { code, message, docs, field_errors, warnings } }`, or as the OAuth body
 * `{ error, error_description }` on the token endpoints.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: Record<string, string>;
  readonly warnings: string[];
  readonly headers: Record<string, string>;
  /** Further members of the error object a code documents (e.g. `missing_fields`). */
  readonly extra: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: {
      fieldErrors?: Record<string, string>;
      warnings?: string[];
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
      /** What went wrong below, for the log (never rendered to the client). */
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fieldErrors = options.fieldErrors ?? {};
    this.warnings = options.warnings ?? [];
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

export function invalidRequest(message: string, fieldErrors: Record<string, string> = {}): ApiError {
  return new ApiError(400, 'invalid_request', message, { fieldErrors });
}

export function notFound(message = 'The requested resource does not exist.'): ApiError {
  return new ApiError(404, 'not_found', message);
}

/** Seconds a client is asked to wait when a dependency is down (`Retry-After`). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * `503 database_busy`: the database is up but the operation could not get its turn (PostgreSQL kept
 * aborting it for conflicting ones; on SQLite another process held the lock past the busy timeout).
 * Nothing was changed; the client retries after `Retry-After`.
 */
export function databaseBusy(message: string, cause?: unknown): ApiError {
  return new ApiError(503, 'database_busy', message, {
    headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
    cause,
  });
}

/** Seconds a client is asked to wait before retrying an operation the database was too busy for. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * `503 service_unavailable`: the database cannot be reached (down, restarting, unreachable). The
 * client retries after `Retry-After`, a write with its `Idempotency-Key`, so that one whose commit
 * landed before the connection died is not done twice.
 */
export function serviceUnavailable(cause?: unknown): ApiError {
  return new ApiError(503, 'service_unavailable', 'The service is temporarily unavailable; retry shortly.', {
    headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    cause,
  });
}

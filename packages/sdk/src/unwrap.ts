import { ERROR_CLASSES } from './error-classes.ts';
import { errorCode, PurserError } from './errors.ts';

/**
 * The error of a failed answer, as the class of its code (`NotFoundError`, `InvalidRequestError`, …,
 * every one a `PurserError`); a code the SDK does not know stays a plain `PurserError`.
 */
export function purserError(status: number, body: unknown, requestId: string | null = null): PurserError {
  const ErrorClass = ERROR_CLASSES.get(errorCode(status, body)) ?? PurserError;
  return new ErrorClass(status, body, requestId);
}

/** Reads a failed response's body into its error. */
export async function readError(response: Response): Promise<PurserError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): kept as text.
  }
  return purserError(response.status, body, response.headers.get('x-request-id'));
}

/**
 * The data of a call made with the client, or its error: `await unwrap(purser.GET(…))`.
 * openapi-fetch answers `{ data, error, response }`; this turns the error half into a throw.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  throw purserError(response.status, error, response.headers.get('x-request-id'));
}

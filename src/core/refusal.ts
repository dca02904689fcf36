import { ApiError } from './errors.ts';

/**
 * How a domain says no: a code from the domain's closed union (`CardRefusalCode`, declared in its
 * front door), a message for the caller, and the field errors or further members the code documents.
 * No HTTP status: the domain's routes decide it in their one table (`refusalStatuses`), MCP tools and
 * hosted pages put the same code in their own words.
 */
export class Refusal<Code extends string = string> extends Error {
  readonly code: Code;
  readonly fieldErrors: Record<string, string>;
  /** Further members of the error object the code documents (e.g. `missing_fields`). */
  readonly extra: Record<string, unknown>;
  /** User-safe advice beside the refusal (a KYC photo too dark, blurry), the error body's `warnings`. */
  readonly warnings: string[];

  constructor(
    code: Code,
    message: string,
    options: {
      fieldErrors?: Record<string, string>;
      extra?: Record<string, unknown>;
      warnings?: string[];
      /** What went wrong below, for the log (never shown to the caller). */
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'Refusal';
    this.code = code;
    this.fieldErrors = options.fieldErrors ?? {};
    this.extra = options.extra ?? {};
    this.warnings = options.warnings ?? [];
  }
}

/** The codes every domain may answer with, beside its own. */
export type CommonRefusalCode = 'invalid_request' | 'not_found' | 'rate_limited';

/** A request the domain cannot take as it is; `fieldErrors` names each bad field. */
export function invalid(
  message: string,
  fieldErrors: Record<string, string> = {},
): Refusal<'invalid_request'> {
  return new Refusal('invalid_request', message, { fieldErrors });
}

/** Nothing of that id for this caller. */
export function missing(message = 'The requested resource does not exist.'): Refusal<'not_found'> {
  return new Refusal('not_found', message);
}

/**
 * Too many of these requests: `429 rate_limited`, with `Retry-After` when the limiter knows when the
 * next one is allowed.
 */
export function rateLimited(message: string, retryAfterSeconds?: number): Refusal<'rate_limited'> {
  return new Refusal('rate_limited', message, {
    extra: retryAfterSeconds === undefined ? {} : { retry_after_seconds: retryAfterSeconds },
  });
}

/**
 * What a route answers with for a code: its status, and (rarely) headers the protocol asks of it,
 * read from the refusal's `extra` (which then stays out of the body).
 */
export type RefusalAnswer =
  | number
  | { status: number; headers: (refusal: Refusal) => Record<string, string> };

/** Every code's answer, gathered from the domains' route tables as their modules load. */
const answers = new Map<string, RefusalAnswer>();

/**
 * A domain's routes declare their table with this: every code of the union gets its status (the type
 * checks none is left out). A code means one status across the API (the error catalog lists it once),
 * so two tables that disagree on a code fail as the app loads.
 */
export function refusalStatuses<Code extends string>(
  table: Record<Code, RefusalAnswer>,
): Record<Code, RefusalAnswer> {
  for (const [code, answer] of Object.entries<RefusalAnswer>(table)) {
    const known = answers.get(code);
    if (known !== undefined && statusOf(known) !== statusOf(answer))
      throw new Error(
        `refusal code ${code} answers ${statusOf(known)} in one table and ${statusOf(answer)} in another`,
      );
    if (known === undefined || typeof answer !== 'number') answers.set(code, answer);
  }
  return table;
}

// The codes every domain may answer with, the same everywhere.
refusalStatuses<CommonRefusalCode>({
  invalid_request: 400,
  not_found: 404,
  rate_limited: {
    status: 429,
    headers: ({ extra }): Record<string, string> =>
      typeof extra.retry_after_seconds === 'number'
        ? { 'retry-after': String(extra.retry_after_seconds) }
        : {},
  },
});

/** Every code the route tables loaded so far answer with, and its status (the error catalog's check). */
export function refusalStatusList(): { code: string; status: number }[] {
  return [...answers].map(([code, answer]) => ({ code, status: statusOf(answer) }));
}

function statusOf(answer: RefusalAnswer): number {
  return typeof answer === 'number' ? answer : answer.status;
}

/**
 * A refusal in either form: a domain's `Refusal`, or an `ApiError` of a layer that decides its status
 * itself (a route, the database's `503 database_busy`, a service not yet converted). For a catch
 * that treats a refusal apart from a failure, without importing core/errors.ts.
 */
export function isRefusal(error: unknown): error is Refusal | ApiError {
  return error instanceof Refusal || error instanceof ApiError;
}

/**
 * The HTTP error a refusal is answered with (other errors pass unchanged). A code no route table
 * knows is a bug: it is answered 500, with the refusal as the logged cause.
 */
export function asApiError(error: unknown): unknown {
  if (!(error instanceof Refusal)) return error;
  const answer = answers.get(error.code);
  if (answer === undefined)
    return new ApiError(500, 'internal_error', 'Something went wrong on our side. Try again.', {
      cause: error,
    });
  const { headers, extra } =
    typeof answer === 'number'
      ? { headers: {}, extra: error.extra }
      : { headers: answer.headers(error), extra: {} };
  return new ApiError(statusOf(answer), error.code, error.message, {
    fieldErrors: error.fieldErrors,
    warnings: error.warnings,
    extra,
    headers,
    cause: error.cause,
  });
}

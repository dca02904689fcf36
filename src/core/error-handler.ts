import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseBusy, isDatabaseUnavailable } from '../db/availability.ts';
import { ApiError, databaseBusy, notFound, serviceUnavailable } from './errors.ts';
import { asApiError } from './refusal.ts';

/** How a route renders errors: the v2 body everywhere, the OAuth body on token endpoints. */
export type ErrorFormat = 'v2' | 'oauth';

declare module 'fastify' {
  interface FastifyContextConfig {
    errorFormat?: ErrorFormat;
  }
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Turns schema failures into `field_errors`: one readable message per bad field. */
export function fieldErrorsOf(validation: AjvError[], context: string | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  const isNullBranch = (error: AjvError) => error.keyword === 'type' && error.params.type === 'null';
  for (const error of validation) {
    // A value failing `T | null` fails each branch; "must be a null" says less than T's own rule.
    const otherBranch = (other: AjvError) =>
      other.instancePath === error.instancePath && other.keyword !== 'anyOf' && !isNullBranch(other);
    if (isNullBranch(error) && validation.some(otherBranch)) continue;
    let field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') {
      field = [field, String(error.params.missingProperty)].filter(Boolean).join('.');
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      field = [field, String(error.params.additionalProperty)].filter(Boolean).join('.');
      message = 'is not a recognised field';
    } else if (error.keyword === 'format') {
      message = `must be a valid ${String(error.params.format).replace('-', ' ')}`;
    } else if (error.keyword === 'maxLength') {
      message = `must be at most ${String(error.params.limit)} characters`;
    } else if (error.keyword === 'minLength') {
      message =
        Number(error.params.limit) === 1
          ? 'must not be empty'
          : `must be at least ${error.params.limit} characters`;
    } else if (error.keyword === 'type') {
      const type = String(error.params.type);
      message = `must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
    } else if (error.keyword === 'enum') {
      message = `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
    } else if (error.keyword === 'const') {
      // A union of literals fails once per literal: name them all.
      const allowed = validation
        .filter((other) => other.keyword === 'const' && other.instancePath === error.instancePath)
        .map((other) => other.params.allowedValue);
      message = allowed.length > 1 ? `must be one of: ${allowed.join(', ')}` : `must be ${allowed[0]}`;
    }
    if (!field) field = context ?? 'body';
    fields[field] ??= message;
  }
  return fields;
}

/** Framework errors (bad JSON, media type, size) mapped to the spec's codes. */
function fromFrameworkError(error: FastifyError, format: ErrorFormat | undefined): ApiError {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        415,
        'unsupported_media_type',
        format === 'oauth'
          ? 'Send the body as application/x-www-form-urlencoded.'
          : 'Send the body as application/json.',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'payload_too_large', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, 'invalid_request', 'The body is not valid JSON.');
  }
  if (error instanceof SyntaxError)
    return new ApiError(400, 'invalid_request', 'The body is not valid JSON.');
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return new ApiError(status, 'invalid_request', 'The request is malformed.');
  return new ApiError(500, 'internal_error', 'Something went wrong on our side. Try again.');
}

export function docsUrl(baseUrl: string, code: string): string {
  return `${baseUrl}/docs/errors#${code}`;
}

export function sendError(
  reply: FastifyReply,
  error: ApiError,
  baseUrl: string,
  format = reply.request.routeOptions.config?.errorFormat,
): FastifyReply {
  reply.code(error.status).headers(error.headers);
  if (format === 'oauth') {
    reply.header('cache-control', 'no-store');
    return reply.send({ error: error.code, error_description: error.message });
  }
  return reply.send({
    error: {
      code: error.code,
      message: error.message,
      docs: docsUrl(baseUrl, error.code),
      field_errors: error.fieldErrors,
      warnings: error.warnings,
      ...error.extra,
    },
  });
}

/**
 * Renders every error a route throws. `onDatabaseUnavailable` hears of each request the database
 * could not serve (the process's view of it: /readyz, one log line per change); the request itself
 * is answered `503 service_unavailable` and logged at warn, without the stack a bug would get.
 */
export function installErrorHandler(
  app: FastifyInstance,
  baseUrl: string,
  onDatabaseUnavailable: (error: unknown) => void = () => {},
): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    let apiError: ApiError;
    const answered = asApiError(error);
    if (answered instanceof ApiError) {
      apiError = answered;
    } else if (isDatabaseUnavailable(error)) {
      apiError = serviceUnavailable(error);
    } else if (isDatabaseBusy(error)) {
      apiError = databaseBusy('The database is busy; nothing was changed. Retry shortly.', error);
    } else if (error.validation && error.validationContext === 'params') {
      // A path id that cannot be one (too long, malformed) names nothing: 404, as an unknown id (issue 8).
      apiError = notFound();
    } else if (error.validation) {
      const fieldErrors = fieldErrorsOf(error.validation as AjvError[], error.validationContext);
      const names = Object.keys(fieldErrors);
      apiError = new ApiError(400, 'invalid_request', `Invalid ${names.join(', ')}.`, { fieldErrors });
    } else {
      apiError = fromFrameworkError(error, request.routeOptions.config?.errorFormat);
    }
    // Whatever the code the route answers with (`auth_unavailable` on Connect), a lost database is
    // the process's state (one line per change), not a bug with a stack.
    if (apiError.status === 503 && isDatabaseUnavailable(apiError.cause)) {
      onDatabaseUnavailable(apiError.cause);
      request.log.warn({ reason: (apiError.cause as Error | undefined)?.message }, 'database unavailable');
    } else if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, apiError, baseUrl);
  });
}

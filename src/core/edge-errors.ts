import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { docsUrl, sendError } from './error-handler.ts';
import { ApiError } from './errors.ts';

/**
 * Errors Fastify's router raises before any route (and so before the error handler) is chosen:
 * a path that is not valid percent-encoded UTF-8, and a path segment longer than the router keeps
 * (`maxParamLength`). Both answer in the one error body.
 */
export function frameworkErrors(baseUrl: string) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      return sendError(
        reply,
        new ApiError(414, 'uri_too_long', 'A path segment is too long; no resource has an id that long.'),
        baseUrl,
      );
    }
    if (error.code === 'FST_ERR_BAD_URL') {
      return sendError(
        reply,
        new ApiError(400, 'invalid_request', 'The path is not valid percent-encoded UTF-8.', {
          fieldErrors: { path: 'is not valid percent-encoded UTF-8' },
        }),
        baseUrl,
      );
    }
    return sendError(reply, new ApiError(400, 'invalid_request', 'The request is malformed.'), baseUrl);
  };
}

/**
 * Requests Node's HTTP parser refuses itself (headers over 16 KiB, a malformed request line or
 * header, a request that timed out): no Fastify request exists, so the answer is written on the
 * socket, still in the error body, and the connection is closed.
 */
export function clientErrorHandler(baseUrl: string) {
  return (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, code, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'request_header_fields_too_large', 'The request headers are too large.']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'request_timeout', 'The request was not received in time.']
          : [400, 'invalid_request', 'The request is not valid HTTP.'];
    const body = JSON.stringify({
      error: { code, message, docs: docsUrl(baseUrl, code), field_errors: {}, warnings: [] },
    });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

/**
 * Bodies are read as UTF-8 (RFC 8259 §8.1 for JSON): a body declared in another charset would be
 * misread, so it is refused, after authentication and before the body is read.
 */
export function refuseOtherCharsets(contentType: string | undefined): ApiError | null {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  if (charset === undefined || /^utf-?8$/i.test(charset)) return null;
  return new ApiError(415, 'unsupported_media_type', `Send the body as UTF-8, not ${charset.slice(0, 40)}.`);
}

import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import type { PhotoField, UploadBody, UploadBodyTask } from './reader/upload.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body fields of the route that hold photos as base64 text (`photoFields`). */
    photoFields?: PhotoField[];
  }
  interface FastifyRequest {
    /**
     * The photos of an upload read off the API's thread, by field (`image`, `frames.0`): set by
     * `readUploadsOffThread`'s parser, null when it decoded none.
     */
    photos: Record<string, Buffer> | null;
  }
}

/**
 * Below this, a body is parsed on the API's thread: a thread's round trip costs about what parsing
 * it here does (a face scan from the hosted page's 640 × 480 camera is 100–250 kB).
 */
const OFF_THREAD_BYTES = 64 * 1024;

/** What a photo field's string schema may say: validation sees a stand-in (reader/upload.ts). */
const LENGTH_ONLY = new Set(['type', 'minLength', 'maxLength', 'description']);

/**
 * The fields `names` of a body schema, each a photo as base64 text or a list of them, for a route's
 * `config.photoFields`. Validation sees a stand-in for each decoded photo, which only answers as the
 * photo would to a bound on its length: a field whose schema says more is refused here, at startup.
 */
export function photoFields(body: TObject, names: string[]): PhotoField[] {
  return names.map((name) => {
    const field = body.properties[name] as Record<string, unknown> | undefined;
    const text = (field?.type === 'array' ? field.items : field) as Record<string, unknown> | undefined;
    if (
      text?.type !== 'string' ||
      Object.keys(text).some((keyword) => !LENGTH_ONLY.has(keyword)) ||
      ((text.minLength as number | undefined) ?? 0) > 1
    )
      throw new Error(`photo field ${name}: its schema may only bound the length of a string`);
    return { name, maxLength: (text.maxLength as number | undefined) ?? Number.POSITIVE_INFINITY };
  });
}

/**
 * Parses this plugin's JSON bodies. A large body of a route with `config.photoFields` is read on
 * the reader's upload thread (reader/upload.ts): the API's thread neither parses nor decodes its
 * photos, nor validates their text; the handler takes the bytes from `request.photos`. Every other
 * body, or one the thread cannot take (busy, ended), is parsed here as the app parses JSON, and a
 * body that is not JSON is refused the same way on either thread.
 */
export function readUploadsOffThread(
  app: FastifyInstance,
  reader: { readUploadBody(task: UploadBodyTask): Promise<UploadBody> },
): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.decorateRequest('photos', null);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    const bytes = raw as Buffer;
    // As everywhere in the app: an empty body sent as JSON is no body.
    if (bytes.length === 0) return done(null, undefined);
    const photos = request.routeOptions.config.photoFields;
    if (!photos || bytes.length < OFF_THREAD_BYTES) return parseJson(request, bytes.toString('utf8'), done);
    // An Idempotency-Key's digest covers the body as sent (core/idempotency.ts): it keeps the text.
    const keepText = request.headers['idempotency-key'] !== undefined;
    reader.readUploadBody({ bytes, photos, keepText }).then(
      (read) => {
        if (!read.ok) return done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
        if (Object.keys(read.photos).length > 0) request.photos = read.photos;
        done(null, read.body);
      },
      () => parseJson(request, bytes.toString('utf8'), done),
    );
  });
}

/** A photo field's bytes when its upload was read off the API's thread, else its text. */
export function photoOf(request: FastifyRequest, key: string, text: string): string | Buffer {
  return request.photos?.[key] ?? text;
}

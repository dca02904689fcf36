import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../../config.ts';
import type { Clock } from '../../../core/clock.ts';
import { ApiError } from '../../../core/errors.ts';
import { errorResponses } from '../../../core/schemas.ts';
import { rawJsonRefusal } from '../../../core/text-guard.ts';
import type { Db } from '../../../db/index.ts';
import type { CardService } from '../service.ts';
import { verifyStandardWebhook } from './signature.ts';
import { LithicWebhooks } from './webhooks.ts';

export interface LithicWebhookRoutesOptions {
  db: Db;
  cards: CardService;
  clock: Clock;
  /** Lithic's settings; none: the routes are not there (another issuer). */
  lithic: Config['cards']['lithic'];
}

/**
 * Lithic's calls to us (docs/cards.md, Lithic): Auth Stream Access and events, each signed with
 * Standard Webhooks under its own secret. Present only when `CARD_ISSUER=lithic`; unsigned, badly
 * signed (the other route's secret included) or stale requests are `401` and change nothing.
 */
export async function lithicWebhookRoutes(
  app: FastifyInstance,
  { db, cards, clock, lithic }: LithicWebhookRoutesOptions,
) {
  if (!lithic) return;
  const webhooks = new LithicWebhooks(db, cards, {
    budgetMs: lithic.asaBudgetMs,
    marginMs: lithic.asaPlatformMarginMs,
  });

  // The signature covers the bytes as sent: in this plugin only, JSON bodies arrive unparsed.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(rawJsonRefusal(body as string), body),
  );

  /** The parsed payload of a request correctly signed with this route's secret, fresh; otherwise `401`. */
  const verified = (request: FastifyRequest<{ Body: string }>, secret: string): unknown => {
    // No body schema: a request without a body is as unsigned as one without headers (401, not 400).
    const body = typeof request.body === 'string' ? request.body : '';
    if (!verifyStandardWebhook(secret, request.headers, body, clock.now())) {
      throw new ApiError(401, 'invalid_signature', 'The webhook signature is missing, wrong or too old.');
    }
    try {
      return JSON.parse(body);
    } catch {
      throw new ApiError(400, 'invalid_request', 'The body is not JSON.');
    }
  };

  app.post<{ Body: string }>(
    '/webhooks/lithic/asa',
    {
      schema: {
        // The issuer's callbacks, not part of the platform API.
        hide: true,
        summary: 'Lithic Auth Stream Access: decide an authorization (Standard Webhooks signed)',
        tags: ['Issuer webhooks'],
        response: {
          200: Type.Object({ token: Type.String(), result: Type.String() }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request: FastifyRequest<{ Body: string }>, reply: FastifyReply) => {
      const payload = verified(request, lithic.asaSecret);
      return reply.send(await webhooks.authorize(payload, request.log));
    },
  );

  app.post<{ Body: string }>(
    '/webhooks/lithic/events',
    {
      schema: {
        hide: true,
        summary: 'Lithic events: clearing, voids, cards closed upstream (Standard Webhooks signed)',
        tags: ['Issuer webhooks'],
        response: { 200: Type.Object({ received: Type.Boolean() }), ...errorResponses(400, 401) },
      },
    },
    async (request: FastifyRequest<{ Body: string }>) => {
      await webhooks.event(verified(request, lithic.eventsSecret), request.log);
      return { received: true };
    },
  );
}

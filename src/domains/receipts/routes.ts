import { Type } from 'typebox';
import { ApiError } from '../../core/errors.ts';
import { documented, errorResponses, type RoutesApp } from '../../core/schemas.ts';
import { type AuthService, platformGuard } from '../auth/index.ts';
import type { ReceiptService } from './service.ts';

/*
 * Receipts of orders placed under a mandate (docs/mandates.md "Receipts"): the public keys that
 * verify them, and an order's receipt for the platform.
 */

const Jwk = Type.Object({
  kty: Type.Literal('EC'),
  crv: Type.Literal('P-256'),
  x: Type.String(),
  y: Type.String(),
  kid: Type.String({
    description: 'The key’s JWK thumbprint (RFC 7638, SHA-256); a receipt’s header names it',
  }),
  alg: Type.Literal('ES256'),
  use: Type.Literal('sig'),
});

const ReceiptJwks = Type.Object(
  { keys: Type.Array(Jwk) },
  {
    $id: 'ReceiptJwks',
    description:
      'The keys that verify receipts (RFC 7517 JWK Set): the one that signs now, then retired ones until they expire.',
  },
);

const ReceiptClaims = Type.Object(
  {
    mandate_id: Type.String(),
    terms_hash: Type.String({
      description: 'The mandate’s `terms_hash`: SHA-256 of its RFC 8785 terms, hex',
    }),
    cart_hash: Type.String({ description: 'The confirmed cart’s hash' }),
    order_id: Type.String(),
    amount_cents: Type.Integer({ description: 'What was charged' }),
    currency: Type.String(),
    merchant: Type.String(),
    placed_at: Type.String({ description: 'ISO 8601' }),
  },
  { description: 'What the receipt states: its JWS payload, decoded.' },
);

const Receipt = Type.Object(
  {
    object: Type.Literal('receipt'),
    order_id: Type.String(),
    mandate_id: Type.String(),
    kid: Type.String({ description: 'The key that signed it, in `/.well-known/jwks.json`' }),
    jws: Type.String({ description: 'Compact JWS (RFC 7515), ES256, over `claims`' }),
    claims: ReceiptClaims,
  },
  {
    $id: 'Receipt',
    description:
      'The signed receipt of an order placed under a mandate. Verify `jws` against the published keys; ' +
      '`claims` is its payload, for reading only.',
  },
);

const jwkExample = {
  kty: 'EC' as const,
  crv: 'P-256' as const,
  x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
  y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
  kid: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs',
  alg: 'ES256' as const,
  use: 'sig' as const,
};

const claimsExample = {
  mandate_id: 'mdt_7Hj2Kl9MnP4qRsTu',
  terms_hash: 'c0535e4be2b79ffd93291305436bf889314e4a3faec05ecffcbb7df31ad9e51a',
  cart_hash: '9f2c4e1a7b3d5f6e8a0c2d4e6f8a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f2a',
  order_id: 'ord_2Lm8Np4QrSt6UvWx',
  amount_cents: 1093,
  currency: 'usd',
  merchant: 'coffee',
  placed_at: '2026-11-23T10:01:00.000Z',
};

export async function receiptRoutes(
  app: RoutesApp,
  { auth, receipts }: { auth: AuthService; receipts: ReceiptService },
): Promise<void> {
  app.addSchema(ReceiptJwks);
  app.addSchema(Receipt);

  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: ['Receipts'],
        security: [],
        operationId: 'getReceiptKeys',
        summary: 'The public keys that verify order receipts (JWK Set)',
        description:
          'A receipt’s JWS header names its key (`kid`). Retired keys stay here until they expire ' +
          '(`RECEIPT_KEY_RETENTION_DAYS` after their retirement); a verifier that meets an unknown `kid` ' +
          'fetches this again, since a rotation publishes the new key as it starts signing.',
        response: {
          200: documented(ReceiptJwks, 'The keys.', { keys: [jwkExample] }),
          ...errorResponses(503),
        },
      },
    },
    async (_request, reply) => {
      // Anyone may verify, from any origin; a short cache so a rotation is seen within minutes.
      reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=300');
      return receipts.jwks();
    },
  );

  app.get(
    '/api/v2/orders/:id/receipt',
    {
      onRequest: platformGuard(auth),
      schema: {
        tags: ['Receipts'],
        security: [{ platformToken: [] }],
        operationId: 'getOrderReceipt',
        summary: 'The signed receipt of an order placed under a mandate',
        description:
          'The same JWS `order.placed` carried, unless its key has since expired: then the same claims ' +
          'signed by the current key.',
        params: Type.Object({ id: Type.String() }),
        response: {
          200: documented(Receipt, 'The receipt.', {
            object: 'receipt',
            order_id: claimsExample.order_id,
            mandate_id: claimsExample.mandate_id,
            kid: jwkExample.kid,
            jws: 'eyJhbGciOiJFUzI1NiIsImtpZCI6Ik56YkxzWGg4dURDY2QtNk1Od1hGNFdfN25vV1hGWkFmSGt4WnNSR0M5WHMifQ.eyJtYW5kYXRlX2lkIjoibWR0XzdIajJLbDlNblA0cVJzVHUifQ.MEUCIQDa…',
            claims: claimsExample,
          }),
          ...errorResponses(401, 403, 404, 503, {
            404: 'No such order in this organization and mode, or it was not placed under a mandate.',
          }),
        },
      },
    },
    async (request) => {
      const { organizationId, livemode } = request.principal!;
      const receipt = await receipts.forOrder({ organizationId, livemode }, request.params.id);
      if (!receipt)
        throw new ApiError(
          404,
          'not_found',
          'No receipt: no such order, or it was not placed under a mandate.',
        );
      return receipt;
    },
  );
}

import { Type } from 'typebox';
import { refusalStatuses } from '../../core/refusal.ts';
import {
  documented,
  ErrorBody,
  errorExample,
  errorResponse,
  errorResponses,
  type RoutesApp,
  withExample,
} from '../../core/schemas.ts';
import { type AuthService, platformGuard } from '../auth/index.ts';
import { linkDeliveryField } from '../notifications/index.ts';
import type { WalletLinkRefusalCode } from './index.ts';
import { type LinkService, WALLET_LINK_TTL } from './service.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<WalletLinkRefusalCode>({
  subscription_required: 402,
  wallet_link_unavailable: 403,
  not_found: 404,
  user_info_required: 422,
  contact_missing: 422,
});

const WalletLinkObject = Type.Object(
  {
    object: Type.Literal('wallet_link'),
    id: Type.String(),
    user_id: Type.String(),
    status: Type.Literal('active'),
    url: Type.String({
      description:
        'The hosted wallet page. Safe to send as text: opening it (a link-preview fetch included) changes nothing. ' +
        'Append `merchant` and `amount` (integer cents) query parameters to ask the user to approve a payment.',
    }),
    expires_at: Type.String({ description: 'ISO 8601' }),
    test_mode: Type.Boolean(),
    delivery: linkDeliveryField('the request did not ask for `send`: the platform delivers the `url`'),
  },
  { $id: 'WalletLink', description: "A link to the user's hosted wallet page (spec §2 Wallet link)." },
);

const example = {
  object: 'wallet_link' as const,
  id: 'wl_3Fk9LmN2pQr7StUvWx1yZa',
  user_id: 'usr_3Fk9LmN2pQr7StUvWx1yZa',
  status: 'active' as const,
  url: 'https://purser.example/wallet/wlt_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0gH2iJ4kL6mN8',
  expires_at: '2026-11-23T10:15:00.000Z',
  test_mode: true,
  delivery: null,
};

/** `POST /api/v2/wallet_links` (spec §4 "Wallet, vault, cards"). */
export async function walletLinkRoutes(
  app: RoutesApp,
  { auth, links }: { auth: AuthService; links: LinkService },
): Promise<void> {
  app.addSchema(WalletLinkObject);

  app.post(
    '/api/v2/wallet_links',
    {
      onRequest: platformGuard(auth),
      schema: {
        tags: ['Wallet links'],
        security: [{ platformToken: [] }],
        operationId: 'createWalletLink',
        summary: "Create a link to the user's hosted wallet",
        description:
          'The page shows the spending power, cards (last 4 digits), recent transactions and how to add funds; ' +
          'with `?merchant=…&amount=…` appended, a payment approval for that amount. The organization must have ' +
          'wallet links enabled by the operator and, in production, an active subscription; consent must be recorded ' +
          'first. See docs/wallet-links.md.',
        body: withExample(
          Type.Object(
            {
              user_id: Type.String({ minLength: 1, maxLength: 64 }),
              expires_in: Type.Optional(
                Type.Integer({
                  minimum: WALLET_LINK_TTL.min,
                  maximum: WALLET_LINK_TTL.max,
                  description: 'Seconds until the link stops working (spec §8); default 900.',
                }),
              ),
              send: Type.Optional(
                Type.Boolean({
                  description:
                    "Beyond the spec: true asks Purser to send the link to the phone on the user's account, else the " +
                    'email (as a vault link goes); `delivery` then says what happened. Default false: the platform ' +
                    'delivers the `url`.',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          { user_id: 'usr_3Fk9LmN2pQr7StUvWx1yZa', expires_in: 900 },
        ),
        response: {
          201: documented(WalletLinkObject, 'The link, active until `expires_at`.', example),
          ...errorResponses(400, 401, 503),
          402: errorResponse(402, 'Production without an active subscription (`subscription_required`).', {
            code: 'subscription_required',
            message: 'Production wallet links need an active subscription.',
          }),
          403: errorResponse(
            403,
            "The user's identity verification was rejected (`wallet_link_unavailable`), or the organization is suspended (`access_denied`).",
            {
              code: 'wallet_link_unavailable',
              message:
                "A wallet link cannot be created for this user: the user's identity verification was rejected.",
            },
          ),
          404: errorResponse(
            404,
            'Wallet links are not enabled for the organization, or no such user in this organization and mode (`not_found`).',
            { code: 'not_found', message: 'Wallet links are not enabled for this organization.' },
          ),
          422: documented(
            ErrorBody,
            'Something must be recorded first (`user_info_required`, with `missing_fields`); with `send`, the user has no phone or email (`contact_missing`); or an `Idempotency-Key` reused with another body (`idempotency_key_reused`).',
            {
              error: {
                ...errorExample(422, {
                  code: 'user_info_required',
                  message: "Record the user's consent first (POST /api/v2/connect/consent).",
                }).error,
                missing_fields: ['consent'],
              },
            },
          ),
        },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return links.create(request.principal!, request.body);
    },
  );
}

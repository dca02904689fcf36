import { Type } from 'typebox';
import { refusalStatuses } from '../../core/refusal.ts';
import {
  documented,
  errorResponses,
  LiteralUnion,
  Nullable,
  type RoutesApp,
  withExample,
} from '../../core/schemas.ts';
import { type AuthService, platformGuard } from '../auth/index.ts';
import { linkDeliveryField } from '../notifications/index.ts';
import type { VaultRefusalCode } from './index.ts';
import type { VaultService } from './service.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<VaultRefusalCode>({
  invalid_request: 400,
  passkey_invalid: 400,
  passkey_required: 403,
  not_found: 404,
  link_used: 409,
  link_expired: 410,
  contact_missing: 422,
  rate_limited: 429,
  auth_provider_error: 502,
});

const VaultLinkObject = Type.Object(
  {
    object: Type.Literal('vault_link'),
    sent: Type.Boolean({
      description:
        'True only when a messaging provider, an SMS service or a mail server took the link; false on a branded ' +
        'vault, and when it failed or only reached the local outbox',
    }),
    delivery: linkDeliveryField('a branded vault'),
    user: Type.String(),
    url: Type.Optional(
      Type.String({ description: 'Present when `sent` is false: the platform delivers it' }),
    ),
  },
  { $id: 'VaultLink', description: 'A connected vault session for one user (spec §2 Vault link).' },
);

const PasskeyResetObject = Type.Object(
  {
    object: Type.Literal('passkey_reset'),
    id: Type.String({ description: '`pkr_…`' }),
    user_id: Type.String(),
    status: LiteralUnion(['pending', 'verified', 'completed', 'canceled', 'locked', 'expired'] as const, {
      description:
        '`pending` (the user has not proven a code yet), `verified` (the code was right: the user is creating the ' +
        'new passkey), `completed` (the new passkey is the only one), `canceled` (a newer reset replaced it), ' +
        '`locked` (five wrong codes), `expired` (not completed within 30 minutes)',
    }),
    channel: Type.Union([LiteralUnion(['email', 'phone'] as const), Type.Null()], {
      description: 'Where the user asked for the code; null until they did.',
    }),
    url: Type.Optional(
      Type.String({
        description:
          'The hosted reset page, for the platform to give the user (only in the answer that created the reset). ' +
          'Safe to send as text: opening it changes nothing; the user proves their email or phone there.',
      }),
    ),
    expires_at: Type.String({ description: 'ISO 8601; 30 minutes after creation' }),
    completed_at: Nullable(Type.String({ description: 'ISO 8601' })),
    test_mode: Type.Boolean(),
  },
  {
    $id: 'PasskeyReset',
    description:
      'A reset of a user\'s passkeys (beyond the spec, issue 29; docs/vault.md "Passkey recovery").',
  },
);

const resetExample = {
  object: 'passkey_reset' as const,
  id: 'pkr_3Fk9LmN2pQr7StUvWx1yZa',
  user_id: 'usr_3Fk9LmN2pQr7StUvWx1yZa',
  status: 'pending' as const,
  channel: null,
  url: 'https://purser.example/passkeys/reset/pkrt_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0gH',
  expires_at: '2026-11-23T10:30:00.000Z',
  completed_at: null,
  test_mode: true,
};

/**
 * `POST /api/v2/checkout/vault_link` and the passkey reset (platform token); the pages their links
 * open are web/vault/page.ts and web/vault/reset-page.ts (docs/vault.md).
 */
export async function vaultRoutes(
  app: RoutesApp,
  { auth, vault, recovery }: { auth: AuthService; vault: VaultService; recovery: VaultService['recovery'] },
): Promise<void> {
  app.addSchema(VaultLinkObject);
  app.addSchema(PasskeyResetObject);

  app.post(
    '/api/v2/users/:user_id/passkeys/reset',
    {
      onRequest: platformGuard(auth),
      schema: {
        tags: ['Wallet and vault'],
        security: [{ platformToken: [] }],
        operationId: 'resetPasskeys',
        summary: 'Start a passkey reset for a user who lost their passkey',
        description:
          'Beyond the spec (issue 29). Answers the `url` of a hosted page to give the user. There the user proves ' +
          'control of the email or phone on their account with a one-time code (in sandbox always `111111`), then ' +
          'creates a new passkey on that device; their old passkeys then stop working, every unlocked vault session ' +
          'locks, and `passkey.reset` fires. The link works 30 minutes; a newer reset cancels the earlier one. ' +
          'Accepts `Idempotency-Key`. See docs/vault.md.',
        params: Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: {
          201: documented(PasskeyResetObject, 'The reset, and its page.', resetExample),
          ...errorResponses(400, 401, 403, 404, 422, 503, {
            404: 'No such user in this organization and mode, or the user is not connected to the platform (`not_found`).',
            422: 'The user has neither a phone number nor an email (`contact_missing`).',
          }),
        },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return recovery.start(request.principal!, request.params.user_id);
    },
  );

  app.get(
    '/api/v2/passkey_resets/:id',
    {
      onRequest: platformGuard(auth),
      schema: {
        tags: ['Wallet and vault'],
        security: [{ platformToken: [] }],
        operationId: 'getPasskeyReset',
        summary: 'A passkey reset and where it stands',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: {
          200: documented(PasskeyResetObject, 'The reset (without its url).', {
            ...resetExample,
            url: undefined,
            status: 'completed' as const,
            channel: 'email' as const,
            completed_at: '2026-11-23T10:07:12.000Z',
          }),
          ...errorResponses(401, 403, 404, 503, { 404: 'No such reset in this organization and mode.' }),
        },
      },
    },
    async (request) => recovery.get(request.principal!, request.params.id),
  );

  app.post(
    '/api/v2/checkout/vault_link',
    {
      onRequest: platformGuard(auth),
      schema: {
        tags: ['Wallet and vault'],
        security: [{ platformToken: [] }],
        operationId: 'createVaultLink',
        summary: "Open a connected vault session and send its link to the user's phone or email",
        description:
          'The link goes to the phone on the user’s account, else the email. An organization with a dedicated ' +
          'branded vault (an operator setting) gets `sent: false` and the `url` to deliver itself, as does a link ' +
          'that no channel took, or that only reached the local outbox; `delivery` says which. Accepts `Idempotency-Key`.',
        body: withExample(
          Type.Object(
            { user: Type.String({ minLength: 1, maxLength: 64 }) },
            { additionalProperties: false },
          ),
          { user: 'usr_3Fk9LmN2pQr7StUv' },
        ),
        response: {
          202: documented(VaultLinkObject, 'The session was opened.', {
            object: 'vault_link',
            sent: true,
            delivery: 'sms',
            user: 'usr_3Fk9LmN2pQr7StUv',
          }),
          ...errorResponses(400, 401, 403, 404, 422, 503, {
            404: 'The user is not connected to the platform (`not_found`).',
            422: 'The user has no phone or email on file (`contact_missing`).',
          }),
        },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return vault.createLink(request.principal!, request.body.user);
    },
  );
}

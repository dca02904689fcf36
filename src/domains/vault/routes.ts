import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { documented, errorResponses, type RoutesApp, withExample } from '../../core/schemas.ts';
import { platformGuard } from '../auth/guard.ts';
import { linkDeliveryField } from '../notifications/link-delivery.ts';

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

/**
 * `POST /api/v2/checkout/vault_link` (platform token); the page its link opens is
 * web/vault/page.ts (docs/vault.md).
 */
export async function vaultRoutes(app: RoutesApp, { ctx }: { ctx: AppContext }): Promise<void> {
  app.addSchema(VaultLinkObject);

  app.post(
    '/api/v2/checkout/vault_link',
    {
      onRequest: platformGuard(ctx.auth),
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
      return ctx.vault.createLink(request.principal!, request.body.user);
    },
  );
}

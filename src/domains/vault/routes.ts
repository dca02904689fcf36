import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { documented, errorResponses, type RoutesApp, withExample } from '../../core/schemas.ts';
import { escapeHtml, hostedPageHeaders } from '../../web/html.ts';
import { platformGuard } from '../auth/guard.ts';
import { ANY_FRAME_ANCESTOR } from '../orgs/embed-origins.ts';

const VaultLinkObject = Type.Object(
  {
    object: Type.Literal('vault_link'),
    sent: Type.Boolean({
      description: 'True when Purser sent the link to the user; false on a branded vault',
    }),
    user: Type.String(),
    url: Type.Optional(
      Type.String({ description: 'Present when `sent` is false: the platform delivers it' }),
    ),
  },
  { $id: 'VaultLink', description: 'A connected vault session for one user (spec §2 Vault link).' },
);

const PAGE_STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#1a1a1a;background:#f6f7f9}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 3px #0002}
h1{font-size:1.3rem;margin:0 0 .5rem}p{margin:.5rem 0}.muted{color:#555;font-size:.9rem}`;

/**
 * `POST /api/v2/checkout/vault_link` (platform token) and the page its link opens (docs/vault.md).
 * Opening the page (any GET, link previews included) changes nothing.
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
          'branded vault (an operator setting) gets `sent: false` and the `url` to deliver itself, as does one whose ' +
          'delivery channel failed. Accepts `Idempotency-Key`.',
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

  app.get(
    '/vault/:token',
    {
      schema: {
        hide: true,
        params: Type.Object({ token: Type.String({ maxLength: 200 }) }),
      },
    },
    async (request, reply) => {
      const nonce = randomBytes(16).toString('base64');
      const found = await ctx.vault.session(request.params.token);
      const ancestors =
        'session' in found && found.session
          ? await ctx.orgs.frameAncestors({
              organizationId: found.session.organization_id,
              livemode: found.session.livemode === 1,
            })
          : ANY_FRAME_ANCESTOR;
      hostedPageHeaders(reply, {
        directives: [`style-src 'nonce-${nonce}'`],
        frameAncestors: ancestors,
        permissions: 'camera=(), microphone=(), geolocation=(), payment=()',
      });
      if (!('session' in found) || !found.session) {
        reply.code(found.problem === 'expired' ? 410 : 404);
        return page(
          nonce,
          found.problem === 'expired' ? 'This link has expired' : 'This link does not work',
          '<p>Ask for a new link from the app you came from.</p>',
        );
      }
      const organization = await ctx.orgs.getOrganization(found.session.organization_id);
      return page(
        nonce,
        `${escapeHtml(organization.name)} card vault`,
        `<p>No cards are kept in your vault yet.</p>
<p class="muted">This vault session stays open until ${escapeHtml(found.expiresAt)}${found.session.livemode ? '' : ' (test mode)'}.</p>`,
      );
    },
  );
}

function page(nonce: string, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style nonce="${nonce}">${PAGE_STYLE}</style></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
}

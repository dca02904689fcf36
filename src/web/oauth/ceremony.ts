import { type Static, Type } from 'typebox';
import { safeEqual } from '../../core/crypto.ts';
import { ApiError } from '../../core/errors.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import type { PageKit } from './kit.ts';

/**
 * The consent page's passkey ceremony (a mandate asked for with `purser:spend`): a first passkey for
 * a user who has none (the sign-in code in this browser proved the email or phone), then the one
 * assertion that approves the grant and the mandate. JSON posts, the flow id as their CSRF token.
 */

const CeremonyBody = Type.Object({
  csrf: Type.Optional(Type.String({ maxLength: 200 })),
  purpose: Type.Optional(Type.String({ maxLength: 20 })),
  terms_hash: Type.Optional(Type.String({ maxLength: 64 })),
  response: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export function consentCeremonyRoutes(app: RoutesApp, kit: PageKit): void {
  const { oauth, orgs, approvals, passkeys, prefix } = kit;

  const ceremony = async (request: { body: Static<typeof CeremonyBody>; headers: { cookie?: string } }) => {
    const session = kit.browserSession(request, 'authorize');
    const csrf = request.body.csrf;
    if (!session || !csrf || !safeEqual(csrf, session.flow))
      throw new ApiError(
        403,
        'csrf_invalid',
        'This page is out of date or the request did not come from it. Reload the page and try again.',
      );
    const client = await oauth.findClient(session.clientId);
    if (!client || !session.userId || !session.pending?.mandate)
      throw new ApiError(400, 'invalid_request', 'Sign in first: this consent asks for no spending terms.');
    const purpose = request.body.purpose;
    if (purpose !== 'register' && purpose !== 'approve')
      throw new ApiError(400, 'invalid_request', 'purpose must be register or approve.', {
        fieldErrors: { purpose: 'must be register or approve' },
      });
    const user = kit.userOf(client, session.userId);
    const pending = session.pending;
    const mandate = { id: pending.mandate!.id, terms: JSON.parse(pending.mandate!.terms) };
    return { session, client, user, pending, mandate, purpose, binding: `oauth_consent:${session.flow}` };
  };
  const firstPasskeyOnly = async (user: ReturnType<PageKit['userOf']>) => {
    if ((await passkeys.list(user)).length > 0)
      throw new ApiError(409, 'link_used', 'You have a passkey already: use it to allow.');
  };

  app.post(
    `${prefix}/authorize/webauthn/options`,
    { schema: { hide: true, body: CeremonyBody } },
    async (request) => {
      const { session, client, user, mandate, purpose, binding } = await ceremony(request);
      if (purpose === 'approve') return approvals.grantOptions(user, mandate);
      await firstPasskeyOnly(user);
      const organization = await orgs.getOrganization(client.organizationId);
      const name = session.account ?? session.userId;
      return passkeys.registrationOptions(
        { ...user, name: name as string, displayName: name as string, rpName: organization.name },
        binding,
      );
    },
  );

  app.post(
    `${prefix}/authorize/webauthn/verify`,
    { schema: { hide: true, body: CeremonyBody } },
    async (request, reply) => {
      const { client, user, pending, mandate, purpose, binding } = await ceremony(request);
      // biome-ignore lint/suspicious/noExplicitAny: the library checks the response's shape itself
      const response = (request.body.response ?? {}) as any;
      if (purpose === 'register') {
        await firstPasskeyOnly(user);
        await passkeys.verifyRegistration(user, binding, response);
        return { next: `${prefix}/authorize/consent` };
      }
      const url = await approvals.approveWithGrant(
        user,
        mandate,
        request.body.terms_hash ?? '',
        response,
        (trx) => oauth.approve(client, pending, user.userId, trx),
      );
      // One decision per authorization request: the cookie is spent.
      kit.clearSession(reply, 'authorize');
      return { next: url };
    },
  );
}

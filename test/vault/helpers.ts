import { expect } from 'vitest';
import { SoftAuthenticator } from '../helpers/soft-authenticator.ts';
import type { PurchasesFixture } from '../purchases/helpers.ts';

/** The CSRF token a hosted page rendered (its root's `data-csrf`). */
export function csrfOf(html: string): string {
  const found = /data-csrf="([^"]+)"/.exec(html);
  if (!found) throw new Error('no data-csrf on the page');
  return found[1] as string;
}

/** A vault session's page path for this user (the organization delivers the link itself). */
export async function vaultPath(f: PurchasesFixture, userId: string): Promise<string> {
  await f.t.ctx.vault.setBrandedVault(f.org.organization_id, true);
  try {
    const response = await f.t.call('POST', '/api/v2/checkout/vault_link', {
      token: f.sandbox,
      body: { user: userId },
    });
    expect(response.statusCode, response.body).toBe(202);
    return new URL(response.json().url as string).pathname;
  } finally {
    await f.t.ctx.vault.setBrandedVault(f.org.organization_id, false);
  }
}

export async function page(f: PurchasesFixture, path: string) {
  return f.t.request({ method: 'GET', url: path });
}

/** A WebAuthn ceremony through a page's two JSON posts; the verify answer. */
export async function ceremony(
  f: PurchasesFixture,
  path: string,
  body: Record<string, unknown>,
  answer: (options: { challenge: string }) => unknown,
) {
  const csrf = csrfOf((await page(f, path)).body);
  const options = await f.t.call('POST', `${path}/webauthn/options`, { body: { ...body, csrf } });
  expect(options.statusCode, options.body).toBe(200);
  const response = answer(options.json());
  return f.t.call('POST', `${path}/webauthn/verify`, { body: { ...body, csrf, response } });
}

/** A user with a passkey (the returned authenticator) and, unless `card` is false, a Visa in the vault. */
export async function vaultUser(f: PurchasesFixture, userId: string, card = true) {
  const path = await vaultPath(f, userId);
  const authenticator = new SoftAuthenticator(f.t.ctx.config.baseUrl);
  const registered = await ceremony(f, path, { purpose: 'register' }, (o) => authenticator.register(o));
  expect(registered.statusCode, registered.body).toBe(200);
  if (card) {
    const added = await addCard(f, path, { number: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' });
    expect(added.statusCode, added.body).toBe(303);
  }
  return { path, authenticator };
}

export async function addCard(
  f: PurchasesFixture,
  path: string,
  card: { number: string; expiry: string; cvc: string },
) {
  const csrf = csrfOf((await page(f, path)).body);
  return f.t.request({
    method: 'POST',
    url: `${path}/cards`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ csrf, ...card }).toString(),
  });
}

/** The user's decision on an approval page, signed by this authenticator. */
export function decide(
  f: PurchasesFixture,
  approvalUrl: string,
  authenticator: SoftAuthenticator,
  decision: 'approve' | 'decline',
) {
  const path = new URL(approvalUrl).pathname;
  return ceremony(f, path, { purpose: 'decide', decision }, (o) => authenticator.assert(o));
}

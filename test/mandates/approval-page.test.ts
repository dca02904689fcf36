import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { expectError } from '../cards/helpers.ts';
import { connectUser, uniqueEmail } from '../helpers/fixtures.ts';
import { SoftAuthenticator } from '../helpers/soft-authenticator.ts';
import { usePurchases } from '../purchases/helpers.ts';
import { csrfOf, vaultUser } from '../vault/helpers.ts';
import { createMandate } from './helpers.ts';

/**
 * The hosted mandate approval page (issue 28; docs/mandates.md "The approval"): the terms in plain
 * words, a passkey assertion whose challenge binds `terms_hash`, kept with the mandate; a first
 * passkey after a code; decline, expiry and a changed term leave the mandate unapproved.
 */
const f = usePurchases();

/** One browser on a mandate's approval page: its cookie, kept from the first GET. */
class Page {
  cookie = '';
  readonly path: string;
  constructor(approvalUrl: string) {
    this.path = new URL(approvalUrl).pathname;
  }

  async open(query = ''): Promise<LightMyRequestResponse> {
    const shown = await f.t.request({ method: 'GET', url: `${this.path}${query}`, headers: this.headers() });
    const set = [shown.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('purser_mandate='));
    if (set) this.cookie = set.split(';')[0] as string;
    return shown;
  }

  /** Posts the page's form for `purpose` (its hidden fields as rendered now) with these fields. */
  async submit(purpose: 'code' | 'verify' | 'decline', fields: Record<string, string> = {}) {
    const html = (await this.open()).body;
    const form = new RegExp(
      `name="purpose" value="${purpose}"><input type="hidden" name="nonce" value="([^"]+)"><input type="hidden" name="csrf" value="([^"]+)">`,
    ).exec(html);
    if (!form) throw new Error(`no ${purpose} form on the page`);
    return f.t.request({
      method: 'POST',
      url: `${this.path}/${purpose}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.headers() },
      payload: new URLSearchParams({ purpose, nonce: form[1]!, csrf: form[2]!, ...fields }).toString(),
    });
  }

  async options(body: Record<string, unknown>) {
    const csrf = csrfOf((await this.open()).body);
    const options = await f.t.call('POST', `${this.path}/webauthn/options`, {
      body: { csrf, ...body },
      headers: this.headers(),
    });
    return { csrf, options };
  }

  async verify(csrf: string, body: Record<string, unknown>) {
    return f.t.call('POST', `${this.path}/webauthn/verify`, {
      body: { csrf, ...body },
      headers: this.headers(),
    });
  }

  /** The whole approval: options for the shown terms, then the authenticator's answer as `answer` makes it. */
  async approve(
    termsHash: string,
    answer: (options: { challenge: string }) => unknown,
  ): Promise<LightMyRequestResponse> {
    const { csrf, options } = await this.options({ purpose: 'approve', terms_hash: termsHash });
    if (options.statusCode !== 200) return options;
    return this.verify(csrf, { purpose: 'approve', terms_hash: termsHash, response: answer(options.json()) });
  }

  private headers(): Record<string, string> {
    return this.cookie ? { cookie: this.cookie } : {};
  }
}

const mandateRow = (id: string) =>
  f.t.ctx.db.selectFrom('mandates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const fetchMandate = async (id: string) =>
  (await f.t.call('GET', `/api/v2/mandates/${id}`, { token: f.sandbox })).json();

/** A connected user with a passkey (the returned authenticator) and a mandate waiting for them. */
async function pending(over = {}) {
  const userId = await f.connectedUser();
  const { authenticator } = await vaultUser(f, userId, false);
  const mandate = await createMandate(f, userId, over);
  return { userId, authenticator, mandate, page: new Page(mandate.approval_url as string) };
}

describe('the mandate approval page', () => {
  it('shows the terms in plain words with the hosted pages’ headers, and opening it changes nothing', async () => {
    const { mandate, page } = await pending({
      max_amount_cents: 15_000,
      budget: { amount_cents: 40_000, interval: 'monthly' },
      allowed_merchants: ['coffee'],
    });
    const before = await mandateRow(mandate.id);
    const shown = await page.open();
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-security-policy']).toContain('frame-ancestors');
    expect(shown.headers['content-security-policy']).toContain("default-src 'none'");
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.headers['referrer-policy']).toBe('no-referrer');
    expect(shown.headers['permissions-policy']).toContain('publickey-credentials-get=(self)');
    expect(shown.body).toContain('Groceries every week');
    expect(shown.body).toMatch(/Each purchase<\/span><span>up to \$150\.00/);
    expect(shown.body).toContain('$400.00 each calendar month (UTC)');
    expect(shown.body).toMatch(/Merchants<\/span><span>coffee/);
    expect(shown.body).toContain(mandate.terms_hash);
    expect(shown.body).toContain('TEST MODE');
    expect(shown.body).toContain(`data-terms-hash="${mandate.terms_hash}"`);
    expect(await mandateRow(mandate.id)).toEqual(before);
  });

  it('approves with a passkey whose challenge binds terms_hash, keeps the assertion, and fires mandate.approved', async () => {
    const { userId, authenticator, mandate, page } = await pending();
    const { csrf, options } = await page.options({ purpose: 'approve', terms_hash: mandate.terms_hash });
    expect(options.statusCode, options.body).toBe(200);
    const challenge = Buffer.from(options.json().challenge as string, 'base64url');
    // The first 32 bytes, recomputed by anyone holding the id and the terms (docs/mandates.md).
    const bound = createHash('sha256').update(`purser-mandate:${mandate.id}:${mandate.terms_hash}`).digest();
    expect(challenge.length).toBe(48);
    expect(challenge.subarray(0, 32).equals(bound)).toBe(true);
    const response = authenticator.assert(options.json());
    const verified = await page.verify(csrf, {
      purpose: 'approve',
      terms_hash: mandate.terms_hash,
      response,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().next).toBe(`${page.path}?done=approved`);

    const approved = await fetchMandate(mandate.id);
    expect(approved).toMatchObject({ status: 'active', approval_url: null, approved_at: expect.any(String) });
    const kept = JSON.parse((await mandateRow(mandate.id)).approval as string);
    expect(kept).toEqual({
      credential_id: authenticator.id,
      challenge: options.json().challenge,
      response: expect.objectContaining({ id: authenticator.id }),
    });
    expect(kept.response.response.signature).toBe(response.response.signature);
    expect((await f.events('mandate.approved')).filter((e) => e.id === mandate.id)).toEqual([
      expect.objectContaining({ status: 'active', user_id: userId, terms_hash: mandate.terms_hash }),
    ]);
    const after = await page.open();
    expect(after.body).toContain('You approved these terms');
    expect(after.body).not.toContain('id="approve"');
    // Approving again: the terms are approved already.
    expectError(
      await page.approve(mandate.terms_hash, (o) => authenticator.assert(o)),
      409,
      'invalid_mandate_state',
    );
  });

  it('refuses a bad assertion and an assertion over another challenge, and the mandate stays pending', async () => {
    const { authenticator, mandate, page } = await pending();
    const tampered = await page.approve(mandate.terms_hash, (o) => {
      const answer = authenticator.assert(o);
      const signature = Buffer.from(answer.response.signature, 'base64url');
      signature[signature.length - 1]! ^= 1;
      return { ...answer, response: { ...answer.response, signature: signature.toString('base64url') } };
    });
    expectError(tampered, 400, 'passkey_invalid');
    // A challenge the page never issued (here: random bytes), and one issued for another mandate.
    const random = await page.approve(mandate.terms_hash, () =>
      authenticator.assert({ challenge: randomBytes(48).toString('base64url') }),
    );
    expectError(random, 400, 'passkey_invalid');
    const other = await createMandate(f, (await mandateRow(mandate.id)).user_id);
    const otherPage = new Page(other.approval_url as string);
    const { options: otherOptions } = await otherPage.options({
      purpose: 'approve',
      terms_hash: other.terms_hash,
    });
    const crossed = await page.approve(mandate.terms_hash, () => authenticator.assert(otherOptions.json()));
    expectError(crossed, 400, 'passkey_invalid');
    expect((await fetchMandate(mandate.id)).status).toBe('pending_approval');
    expect((await mandateRow(mandate.id)).approval).toBeNull();
    expect((await f.events('mandate.approved')).filter((e) => e.id === mandate.id)).toEqual([]);
  });

  it('a changed term leaves it unapproved: at the options, and between the options and the signature', async () => {
    const { authenticator, mandate, page } = await pending();
    const changed = { ...mandate.terms, max_amount_cents: 19_999 };
    const changedHash = createHash('sha256').update(JSON.stringify(changed)).digest('hex');
    // The page shown earlier names the old hash; the terms are changed under it.
    const { csrf, options } = await page.options({ purpose: 'approve', terms_hash: mandate.terms_hash });
    expect(options.statusCode).toBe(200);
    await f.t.ctx.db
      .updateTable('mandates')
      .set({ terms: JSON.stringify(changed), terms_hash: changedHash })
      .where('id', '=', mandate.id)
      .execute();
    const signed = await page.verify(csrf, {
      purpose: 'approve',
      terms_hash: mandate.terms_hash,
      response: authenticator.assert(options.json()),
    });
    expectError(signed, 409, 'terms_changed');
    expectError(await page.approve(mandate.terms_hash, (o) => authenticator.assert(o)), 409, 'terms_changed');
    // A term changed without its hash (a tampered row) is refused as well, whatever hash is named.
    await f.t.ctx.db
      .updateTable('mandates')
      .set({ terms: JSON.stringify(changed), terms_hash: mandate.terms_hash })
      .where('id', '=', mandate.id)
      .execute();
    expectError(await page.approve(mandate.terms_hash, (o) => authenticator.assert(o)), 409, 'terms_changed');
    expect((await mandateRow(mandate.id)).status).toBe('pending_approval');
    expect((await mandateRow(mandate.id)).approval).toBeNull();
  });

  it('expires a week after it was asked for: 410, nothing approved, no approval_url', async () => {
    const { authenticator, mandate, page } = await pending();
    const { csrf, options } = await page.options({ purpose: 'approve', terms_hash: mandate.terms_hash });
    f.t.clock.advance(7 * 86_400_000);
    await f.renewTokens();
    const shown = await page.open();
    expect(shown.statusCode).toBe(410);
    expect(shown.body).toContain('This request has expired');
    expect(shown.body).not.toContain('id="approve"');
    // The challenge issued before lives two minutes anyway; the page's end refuses first.
    const late = await page.verify(csrf, {
      purpose: 'approve',
      terms_hash: mandate.terms_hash,
      response: authenticator.assert(options.json()),
    });
    expectError(late, 410, 'link_expired');
    expectError(await page.approve(mandate.terms_hash, (o) => authenticator.assert(o)), 410, 'link_expired');
    const shownByApi = await fetchMandate(mandate.id);
    expect(shownByApi).toMatchObject({ status: 'pending_approval', approval_url: null, approved_at: null });
  });

  it('declines without a passkey: revoked with mandate.revoked, and it can no longer be approved', async () => {
    const { authenticator, mandate, page } = await pending();
    const declined = await page.submit('decline');
    expect(declined.statusCode, declined.body).toBe(303);
    expect(declined.headers.location).toBe(`${page.path}?done=declined`);
    expect(await fetchMandate(mandate.id)).toMatchObject({ status: 'revoked', approval_url: null });
    expect((await f.events('mandate.revoked')).filter((e) => e.id === mandate.id)).toHaveLength(1);
    expect((await page.open()).body).toContain('These terms were declined or withdrawn');
    expectError(
      await page.approve(mandate.terms_hash, (o) => authenticator.assert(o)),
      409,
      'invalid_mandate_state',
    );
  });

  it('is 404 for a link of another mandate (another organization’s), and the ceremony needs the page’s browser', async () => {
    const { mandate, page } = await pending();
    const other = await f.t.createOrg('Other approvals');
    const otherToken = await f.t.platformToken(other.sandbox);
    const { userId: otherUser } = await connectUser(f.t, otherToken, { email: uniqueEmail('other') });
    const created = await f.t.call('POST', `/api/v2/users/${otherUser}/mandates`, {
      token: otherToken,
      body: { ...mandate.terms, client_id: other.sandbox.client_id },
    });
    expect(created.statusCode, created.body).toBe(201);
    const otherToken_ = new URL(created.json().approval_url).pathname.split('/').at(-1);
    const crossed = await f.t.request({
      method: 'GET',
      url: `/mandates/${mandate.id}/approve/${otherToken_}`,
    });
    expect(crossed.statusCode).toBe(404);
    expect(crossed.body).toContain('This link does not work');
    expectError(
      await f.t.call('GET', `/api/v2/mandates/${mandate.id}`, { token: otherToken }),
      404,
      'not_found',
    );
    // The ceremony's CSRF token is bound to the browser that opened the page.
    const csrf = csrfOf((await page.open()).body);
    const stranger = await f.t.call('POST', `${page.path}/webauthn/options`, {
      body: { csrf, purpose: 'approve', terms_hash: mandate.terms_hash },
    });
    expectError(stranger, 403, 'csrf_invalid');
  });

  it('a user without a passkey proves their email with a code, creates one on the page, then approves', async () => {
    const email = uniqueEmail('first');
    const { userId } = await connectUser(f.t, f.sandbox, { email });
    const mandate = await createMandate(f, userId);
    const page = new Page(mandate.approval_url as string);
    const shown = await page.open();
    expect(shown.body).toContain('you have none yet');
    expect(shown.body).toContain(`Send a code to ${email[0]}•••@`);
    expect(shown.body).not.toContain('id="approve"');
    // Creating a passkey before the code is refused.
    const early = await page.options({ purpose: 'register' });
    expect(early.options.statusCode).toBe(410);

    expect((await page.submit('code', { channel: 'email' })).statusCode).toBe(303);
    const message = (await f.t.ctx.notifications.sentMessages(1000)).find(
      (m) => m.recipient === email && m.body.includes('spending mandate'),
    );
    const code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1] as string;
    expect((await page.submit('verify', { code: '000000' })).statusCode).toBe(400);
    expect((await page.submit('verify', { code })).statusCode).toBe(303);
    expect((await page.open('?done=verified')).body).toContain('id="create-passkey"');

    const authenticator = new SoftAuthenticator(f.t.ctx.config.baseUrl);
    const { csrf, options } = await page.options({ purpose: 'register' });
    expect(options.statusCode, options.body).toBe(200);
    const registered = await page.verify(csrf, {
      purpose: 'register',
      response: authenticator.register(options.json()),
    });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json().next).toBe(`${page.path}?done=passkey`);

    const approved = await page.approve(mandate.terms_hash, (o) => authenticator.assert(o));
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await fetchMandate(mandate.id)).status).toBe('active');
    // The code steps are closed to a user who has a passkey now.
    expectError((await page.options({ purpose: 'register' })).options, 409, 'invalid_mandate_state');
  });
});

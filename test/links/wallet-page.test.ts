import { describe, expect, it } from 'vitest';
import { useCards } from '../cards/helpers.ts';
import { formBody, formFields, snapshot, walletLink } from './helpers.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The hosted wallet page over HTTP: what it shows, that a GET changes nothing, CSRF, expiry. */
describe('the hosted wallet page', () => {
  const f = useCards();

  const get = (path: string, headers: Record<string, string> = {}) =>
    f.t.request({ method: 'GET', url: path, headers });
  const post = (path: string, fields: Record<string, string>) =>
    f.t.request({ method: 'POST', url: path, headers: FORM, payload: formBody(fields) });

  it('shows the spending power, cards by last 4 digits, recent transactions and how to add funds', async () => {
    const w = await walletLink(f, { fund: 10_000 });
    const card = await f.createCard(w.userId, 2500, 'multi_use');
    await f.authorize(card.id as string, 1234, 'Corner Café');
    const response = await get(w.path);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toContain('<p class="amount" id="balance">$75.00</p>');
    expect(html).toContain(`•••• ${card.last4 as string}`);
    expect(html).toContain('$12.66'); // the card's balance after the hold
    expect(html).toContain('Corner Café');
    expect(html).toContain('$12.34');
    expect(html).toContain('TEST MODE');
    expect(html).toContain('id="add-test-funds"');
    // Offline chain: no deposit address, and the page says so.
    expect(html).toContain('id="no-deposit-address"');
    // Only the last 4 digits: no card number, no expiry, no CVC on the page.
    expect(html).not.toMatch(/\b\d{13,19}\b/);
  });

  it('security headers: CSP from the embed origins, no third-party source, no referrer, no caching', async () => {
    const w = await walletLink(f);
    const put = await f.t.call('PUT', '/api/v2/embed_origins', {
      token: f.sandbox,
      body: { origins: ['https://app.platform.example'] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const response = await get(w.path);
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toMatch(/frame-ancestors [^;]*https:\/\/app\.platform\.example/);
    // Loopback ancestors are allowed in test mode (as on the KYC page); nothing else but the embed origin.
    const sources = csp.split(';').flatMap((directive) => directive.trim().split(/\s+/).slice(1));
    expect(
      sources.filter((s) => /^https?:/.test(s) && !/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])/.test(s)),
    ).toEqual(['https://app.platform.example']);
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['permissions-policy']).toContain('camera=()');
    // Everything is Purser's own: no script, no external stylesheet, image or font.
    expect(response.body).not.toMatch(/<script|<link |src="http|href="http/);
  });

  it('any GET (a link-preview bot, a HEAD, a payment request) reads only: the database is the same after', async () => {
    const w = await walletLink(f, { fund: 500 });
    const before = await snapshot(f.t);
    const previews: Record<string, string>[] = [
      {},
      { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' },
    ];
    for (const headers of previews) {
      expect((await get(w.path, headers)).statusCode).toBe(200);
      expect((await get(`${w.path}?merchant=Shop&amount=1999`, headers)).statusCode).toBe(200);
    }
    expect((await f.t.request({ method: 'HEAD', url: w.path })).statusCode).toBe(200);
    expect(await snapshot(f.t)).toEqual(before);
    // And the link still works afterwards: previews did not consume it.
    expect((await get(w.path)).body).toContain('$5.00');
  });

  it('test funds: a POST with the page’s CSRF token adds them once; a resubmitted form changes nothing', async () => {
    const w = await walletLink(f);
    const fields = formFields((await get(w.path)).body, `${w.path}/funds`);
    expect(Object.keys(fields).sort()).toEqual(['csrf', 'nonce']);
    const done = await post(`${w.path}/funds`, fields);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`${w.path}?done=funded`);
    expect(await f.wallet(w.userId)).toBe(5000);
    const page = (await get(done.headers.location as string)).body;
    expect(page).toContain('$50.00 in test funds were added to your wallet.');
    expect(page).toContain('<p class="amount" id="balance">$50.00</p>');
    const again = await post(`${w.path}/funds`, fields);
    expect(again.headers.location).toBe(`${w.path}?done=repeated`);
    expect(await f.wallet(w.userId)).toBe(5000);
  });

  it('a POST without the page’s CSRF token, with a forged one or another link’s, is refused and changes nothing', async () => {
    const w = await walletLink(f);
    const other = await walletLink(f);
    const otherFields = formFields((await get(other.path)).body, `${other.path}/funds`);
    const before = await snapshot(f.t);
    for (const fields of [
      {},
      { nonce: otherFields.nonce as string },
      { nonce: otherFields.nonce as string, csrf: 'A'.repeat(43) },
      otherFields,
    ]) {
      const response = await post(`${w.path}/funds`, fields);
      expect(response.statusCode).toBe(403);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('Nothing was done');
    }
    // A funds form cannot be replayed as an approval either (the token names its purpose).
    const asApproval = await post(`${w.path}/approval`, {
      ...formFields((await get(w.path)).body, `${w.path}/funds`),
      merchant: 'Shop',
      amount: '100',
      decision: 'approve',
    });
    expect(asApproval.statusCode).toBe(403);
    expect(await snapshot(f.t)).toEqual(before);
  });

  it('a payment approval: the panel shows merchant and amount; approve records the decision and shows it', async () => {
    const w = await walletLink(f, { fund: 5000 });
    const path = `${w.path}?merchant=${encodeURIComponent('Books & Co')}&amount=1299`;
    const html = (await get(path)).body;
    expect(html).toContain('<strong>Books &amp; Co</strong> asks for');
    expect(html).toContain('<p class="amount" id="approval-amount">$12.99</p>');
    const fields = formFields(html, `${w.path}/approval`, 'approve');
    expect(fields).toMatchObject({ merchant: 'Books & Co', amount: '1299', decision: 'approve' });
    const done = await post(`${w.path}/approval`, fields);
    expect(done.statusCode).toBe(303);
    const after = (await get(done.headers.location as string)).body;
    expect(after).toContain('You approved this payment.');
    expect(after).toContain('data-state="approved"');
    expect(after).not.toContain('id="approve"');
    const rows = await f.t.ctx.db
      .selectFrom('wallet_link_actions')
      .selectAll()
      .where('user_id', '=', w.userId)
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({
        kind: 'payment_approval',
        merchant: 'Books & Co',
        amount_cents: 1299,
        decision: 'approved',
      }),
    ]);
    // Nothing was charged: the decision is recorded only (docs/wallet-links.md).
    expect(await f.wallet(w.userId)).toBe(5000);
    // The decline form of the same page now changes nothing: the first answer stands.
    const decline = await post(`${w.path}/approval`, formFields(html, `${w.path}/approval`, 'decline'));
    expect(decline.headers.location).toContain('done=repeated');
    expect((await get(path)).body).toContain('You approved this payment.');
  });

  it('decline, and payment requests that are not valid show no buttons', async () => {
    const w = await walletLink(f);
    const html = (await get(`${w.path}?merchant=Shop&amount=500`)).body;
    await post(`${w.path}/approval`, formFields(html, `${w.path}/approval`, 'decline'));
    expect((await get(`${w.path}?merchant=Shop&amount=500`)).body).toContain('You declined this payment.');
    for (const query of [
      'amount=500',
      'merchant=Shop',
      'merchant=Shop&amount=12.50',
      'merchant=Shop&amount=-5',
    ]) {
      const response = await get(`${w.path}?${query}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('data-state="invalid"');
      expect(response.body).not.toContain('id="approve"');
    }
    // Escaped, never markup.
    const hostile = await get(`${w.path}?merchant=${encodeURIComponent('<script>x</script>')}&amount=100`);
    expect(hostile.body).not.toContain('<script>x');
    expect(hostile.body).toContain('&lt;script&gt;x&lt;/script&gt;');
    // A posted form whose payment request or decision is not one the page offers is refused (400).
    const pending = (await get(`${w.path}?merchant=Books&amount=700`)).body;
    const approve = formFields(pending, `${w.path}/approval`, 'approve');
    const before = await snapshot(f.t);
    const changes: Record<string, string>[] = [{ amount: '7.00' }, { merchant: '' }, { decision: 'maybe' }];
    for (const changed of changes) {
      const refused = await post(`${w.path}/approval`, { ...approve, ...changed });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('This payment request is not valid.');
    }
    expect(await snapshot(f.t)).toEqual(before);
  });

  it('an expired link shows a clear expired page (410); its forms no longer act; an unknown token is a 404 page', async () => {
    const w = await walletLink(f, { expiresIn: 60 });
    const fields = formFields((await get(w.path)).body, `${w.path}/funds`);
    f.t.clock.advance(60_000);
    const expired = await get(w.path);
    expect(expired.statusCode).toBe(410);
    expect(expired.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(expired.body).toContain('This link has expired');
    expect(expired.body).not.toMatch(/at .*\.ts|Error|stack/);
    const late = await post(`${w.path}/funds`, fields);
    expect(late.statusCode).toBe(410);
    expect(await f.wallet(w.userId)).toBe(0);
    for (const path of ['/wallet/wlt_nope', `/wallet/wlt_${'A'.repeat(43)}`, `/wallet/${'x'.repeat(90)}`]) {
      const unknown = await get(path);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('Link not valid');
    }
  });

  it('a link stops working (403 page) when the operator turns wallet links off', async () => {
    const w = await walletLink(f);
    await f.t.ctx.links.setEnabled(f.org.organization_id, false);
    const response = await get(w.path);
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('Wallet not available');
    await f.t.ctx.links.setEnabled(f.org.organization_id, true);
    expect((await get(w.path)).statusCode).toBe(200);
  });

  it('a link stops working (403 page) once the user’s verification is rejected, and its forms no longer act', async () => {
    const w = await walletLink(f);
    const fields = formFields((await get(w.path)).body, `${w.path}/funds`);
    const rejected = await f.t.call('POST', '/api/v2/kyc/simulate', {
      token: f.sandbox,
      body: { user_id: w.userId, outcome: 'rejected' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const response = await get(w.path);
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('Wallet not available');
    expect((await post(`${w.path}/funds`, fields)).statusCode).toBe(403);
    expect(await f.wallet(w.userId)).toBe(0);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MandateTermsInput } from '../../src/domains/mandates/terms.ts';
import { createClient, type OAuthServer, signInAndDecide, startOAuthServer, uniqueEmail } from './helpers.ts';

/** The connected-apps page lists each app's open mandates with what is left, and revokes one (issue 28). */
let s: OAuthServer;
beforeAll(async () => {
  s = await startOAuthServer();
});
afterAll(() => s.close());

const REDIRECT = 'http://127.0.0.1:9/callback';
const sandbox = () => ({ organizationId: s.org.organization_id, livemode: false });

/** A user connected to a new public app through the hosted sign-in: the app and the user's id. */
async function connected(email: string, name: string) {
  const { client_id: clientId } = await createClient(s, { type: 'public', redirectUri: REDIRECT, name });
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${s.issuer}/authorize`);
  for (const [key, value] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: s.resource,
    state: 'st',
  }))
    url.searchParams.set(key, value);
  const callback = await signInAndDecide(url, { email });
  const response = await fetch(`${s.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: clientId,
      code: callback.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      resource: s.resource,
      code_verifier: verifier,
    }),
  });
  const principal = await s.t.ctx.auth.authenticate(
    ((await response.json()) as { access_token: string }).access_token,
  );
  return { clientId, userId: principal!.userId! };
}

const terms = (clientId: string, over: Partial<MandateTermsInput> = {}): MandateTermsInput => ({
  client_id: clientId,
  description: 'Weekly groceries',
  currency: 'usd',
  max_amount_cents: 2_000,
  budget: { amount_cents: 5_000, interval: 'weekly' },
  expires_at: new Date(s.t.clock.now() + 30 * 86_400_000).toISOString(),
  ...over,
});

/** The connected-apps page in a browser of plain requests: signed in, then its forms posted. */
async function appsPage(clientId: string, email: string) {
  const opened = await fetch(`${s.issuer}/apps?client_id=${clientId}`, { redirect: 'manual' });
  let cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
  let html = await opened.text();
  const post = async (path: string, fields: Record<string, string>) => {
    const flow = /name="flow" value="([^"]+)"/.exec(html)![1]!;
    const response = await fetch(`${s.issuer}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ flow, ...fields }),
    });
    cookie = response.headers.get('set-cookie')?.split(';')[0] ?? cookie;
    html = await response.text();
    return response;
  };
  await post('/apps/code', { destination: email });
  expect((await post('/apps/verify', { code: '111111' })).status).toBe(200);
  return { post, html: () => html };
}

describe('connected apps and mandates', () => {
  it('lists each app’s open mandates with what is left, and the user revokes one: mandate.revoked', async () => {
    const email = uniqueEmail('mandates');
    const shop = await connected(email, 'Grocery assistant');
    const travel = await connected(email, 'Travel assistant');
    const weekly = await s.t.ctx.mandates.create(sandbox(), shop.userId, terms(shop.clientId));
    const trips = await s.t.ctx.mandates.create(
      sandbox(),
      shop.userId,
      terms(travel.clientId, {
        description: 'Train tickets',
        budget: { amount_cents: 30_000, interval: 'total' },
        allowed_merchants: ['rail'],
      }),
    );
    const ended = await s.t.ctx.mandates.create(
      sandbox(),
      shop.userId,
      terms(shop.clientId, { description: 'Old' }),
    );
    await s.t.ctx.mandates.revoke(sandbox(), ended.id);
    // Another user's mandate for the same app.
    const stranger = await connected(uniqueEmail('stranger'), 'Stranger app');
    const theirs = await s.t.ctx.mandates.create(sandbox(), stranger.userId, terms(shop.clientId));

    const page = await appsPage(shop.clientId, email);
    const html = page.html();
    expect(html).toContain('Grocery assistant');
    expect(html).toContain('Travel assistant');
    expect(html).toContain(`data-mandate="${weekly.id}"`);
    expect(html).toContain('$50.00 left of $50.00 this week');
    expect(html).toContain('Up to $20.00 a purchase, until');
    expect(html).toContain('$300.00 left of $300.00 in all');
    expect(html).toContain('at rail');
    expect(html).not.toContain(ended.id);
    expect(html).not.toContain(theirs.id);

    // Someone else's mandate: 404, nothing revoked.
    expect((await page.post('/apps/revoke-mandate', { mandate_id: theirs.id })).status).toBe(404);
    expect((await s.t.ctx.mandates.get(sandbox(), theirs.id)).status).toBe('pending_approval');

    expect((await page.post('/apps/revoke-mandate', { mandate_id: trips.id })).status).toBe(200);
    expect(page.html()).toContain('The mandate was revoked');
    expect(page.html()).not.toContain(trips.id);
    expect(page.html()).toContain(weekly.id);
    expect((await s.t.ctx.mandates.get(sandbox(), trips.id)).status).toBe('revoked');
    const events = await s.t.ctx.events.listEvents(sandbox(), { type: ['mandate.revoked'], limit: 10 });
    expect(events.data.map((e) => e.data.id)).toContain(trips.id);

    // A form without the page's flow cookie changes nothing.
    const forged = await fetch(`${s.issuer}/apps/revoke-mandate`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ flow: 'x', mandate_id: weekly.id }),
    });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect((await s.t.ctx.mandates.get(sandbox(), weekly.id)).status).toBe('pending_approval');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeReader } from '../../src/domains/kyc/reader/index.ts';
import { useCards } from '../cards/helpers.ts';
import { connectUser, uniqueEmail } from '../helpers/fixtures.ts';
import { driveTo, newUser, verificationId } from '../kyc/api/helpers.ts';
import { activate, createMandate } from '../mandates/helpers.ts';
import { consoleSteps, type SignedIn } from './helpers.ts';

/**
 * The console's pages of issues 28 and 29 over HTTP: a user's mandates, orders with their receipts,
 * merchants, the KYC review queue (each verdict in the audit log) and connected apps and grants; each
 * scoped to the organization and mode (404 otherwise), viewers look but do not act.
 */
const f = useCards();
const { member, get, post, page } = consoleSteps(f);
afterAll(() => closeReader());

let owner: SignedIn;
let viewer: SignedIn;
let stranger: SignedIn;
let otherOrg: string;
let buyer: { userId: string; accessToken: string };
let orderId: string;
let mandate: { id: string; terms_hash: string };

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

beforeAll(async () => {
  owner = await member('owner');
  viewer = await member('viewer');
  const other = await f.t.createOrg('Elsewhere');
  otherOrg = other.organization_id;
  stranger = await member('owner', otherOrg);
  buyer = await connectUser(f.t, f.sandbox, { email: uniqueEmail('buyer') });
  await f.fund(buyer.userId, 5_000);
  const buy = (body: Record<string, unknown>) =>
    f.t.call('POST', '/buy', { token: buyer.accessToken, body }).then((r) => {
      expect(r.statusCode, r.body).toBe(200);
      return r.json();
    });
  // An order placed under the mandate: the purchase path signs its receipt.
  mandate = await createMandate(f, buyer.userId, { allowed_merchants: ['coffee'] });
  await activate(f, mandate);
  const asked = await buy({ ask: 'a latte from coffee' });
  const placed = await buy({ conversation_id: asked.conversation_id, confirm: asked.carts[0].hash });
  expect(placed.status, placed.reply).toBe('order_placed');
  orderId = placed.order_id;
});

describe('a user’s mandates', () => {
  it('shows each mandate on the user’s page with its terms and what is left, with a copy button', async () => {
    const shown = await get(`${page('users')}/${buyer.userId}`, viewer.cookie);
    expect(shown.statusCode, shown.body).toBe(200);
    const section = /<section id="mandates">[\s\S]*?<\/section>/.exec(shown.body)![0];
    expect(section).toContain(`data-copy="${mandate.id}"`);
    expect(section).toContain('$50.00 a purchase, $200.00 a month, at coffee');
    expect(section).toContain('$200.00');
    expect(section).toContain('>active<');
    // The copy buttons' script is the page's own, under its nonce; nothing loaded from elsewhere.
    const nonce = /script-src 'nonce-([^']+)'/.exec(shown.headers['content-security-policy'] as string)![1];
    expect(shown.body).toContain(`<script nonce="${nonce}">`);
    expect(shown.body).not.toMatch(/src="http|<script src/);
  });
});

describe('orders', () => {
  it('lists the orders and shows one with its receipt: the JWS and its decoded payload', async () => {
    const list = await get(page('orders'), viewer.cookie);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).toContain(`orders/${orderId}"`);
    expect(list.body).toContain('>signed<');
    const shown = await get(`${page('orders')}/${orderId}`, viewer.cookie);
    expect(shown.statusCode, shown.body).toBe(200);
    const receipt = await f.t.call('GET', `/api/v2/orders/${orderId}/receipt`, { token: f.sandbox });
    expect(receipt.statusCode, receipt.body).toBe(200);
    const { jws, claims } = receipt.json();
    expect(shown.body).toContain(`<pre id="receipt-jws">${jws}</pre>`);
    const payload = /<pre id="receipt-payload">([\s\S]*?)<\/pre>/
      .exec(shown.body)![1]!
      .replaceAll('&quot;', '"');
    expect(JSON.parse(payload)).toEqual(claims);
    expect(shown.body).toContain(`data-copy="${orderId}"`);
  });

  it('answers 404 for another organization’s or mode’s order, and says so when an order has no receipt', async () => {
    expect((await get(`${page('orders', 'production')}/${orderId}`, owner.cookie)).statusCode).toBe(404);
    expect(
      (await get(`/dashboard/${f.org.organization_id}/sandbox/orders/${orderId}`, stranger.cookie))
        .statusCode,
    ).toBe(404);
    // Another organization's member, on their own organization's page of this order.
    expect((await get(`/dashboard/${otherOrg}/sandbox/orders/${orderId}`, stranger.cookie)).statusCode).toBe(
      404,
    );
    expect((await get(`${page('orders')}/ord_nothing`, owner.cookie)).statusCode).toBe(404);
    const empty = await get(page('orders', 'production'), owner.cookie);
    expect(empty.body).toContain('No orders in this mode yet.');
  });
});

describe('merchants', () => {
  it('lists the merchants purchases can be made at', async () => {
    const shown = await get(page('merchants'), viewer.cookie);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.body).toContain('data-copy="coffee"');
    expect(shown.body).toContain('sandbox');
  });
});

describe('connected apps and grants', () => {
  it('lists the apps with their live grants and open mandates, and every grant', async () => {
    const shown = await get(page('apps'), viewer.cookie);
    expect(shown.statusCode, shown.body).toBe(200);
    const apps = /<table id="apps">[\s\S]*?<\/table>/.exec(shown.body)![0];
    expect(apps).toContain(`data-copy="${f.org.sandbox.client_id}"`);
    const grants = /<table id="grants">[\s\S]*?<\/table>/.exec(shown.body)![0];
    expect(grants).toContain(`users/${buyer.userId}"`);
    expect(grants).toContain('>live<');
    expect(grants).toContain(`title="${mandate.id}"`);
    const production = await get(page('apps', 'production'), viewer.cookie);
    expect(production.body).not.toContain(buyer.userId);
    expect((await get(`/dashboard/${f.org.organization_id}/sandbox/apps`, stranger.cookie)).statusCode).toBe(
      404,
    );
  });
});

describe('the KYC review queue', () => {
  it('approves, rejects and requests information, each in the audit log; viewers and other organizations cannot', async () => {
    const sandboxQueue = await get(page('kyc'), viewer.cookie);
    expect(sandboxQueue.body).toContain('decided by <code>POST /api/v2/kyc/simulate</code>');
    const users = [];
    for (let i = 0; i < 3; i++) {
      const u = await newUser(f.t, f.production, { production: true });
      await driveTo(f.t, u, 'pending');
      users.push({ ...u, verification: await verificationId(f.t, u) });
    }
    const [approve, reject, inform] = users as [
      (typeof users)[number],
      (typeof users)[number],
      (typeof users)[number],
    ];
    const queue = await get(page('kyc', 'production'), owner.cookie);
    expect(queue.statusCode, queue.body).toBe(200);
    for (const u of users) expect(queue.body).toContain(`data-verification="${u.verification}"`);
    const csrf = csrfOf(queue.body);
    const act = (who: SignedIn, fields: Record<string, string>, token = csrf) =>
      post(page('kyc', 'production'), who.cookie, { csrf: token, ...fields });

    // A viewer, a forged form and another organization's member change nothing.
    const viewerQueue = await get(page('kyc', 'production'), viewer.cookie);
    expect(
      (
        await act(
          viewer,
          { action: 'approve', verification_id: approve.verification },
          csrfOf(viewerQueue.body),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await act(owner, { action: 'approve', verification_id: approve.verification }, 'forged')).statusCode,
    ).toBe(403);
    const theirs = await post(`/dashboard/${f.org.organization_id}/production/kyc`, stranger.cookie, {
      csrf: stranger.csrf,
      action: 'approve',
      verification_id: approve.verification,
    });
    expect(theirs.statusCode).toBe(404);
    expect((await act(owner, { action: 'approve', verification_id: 'kyc_nothing' })).statusCode).toBe(404);
    // The sandbox page has no queue: a live verification is not found there.
    expect(
      (
        await post(page('kyc'), owner.cookie, {
          csrf,
          action: 'approve',
          verification_id: approve.verification,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await f.t.call('GET', `/api/v2/kyc?user_id=${approve.userId}`, { token: f.production })).json().status,
    ).toBe('pending');

    // A rejection without a reason is refused, saying why.
    const bare = await act(owner, { action: 'reject', verification_id: reject.verification, reason: '' });
    expect(bare.statusCode).toBe(400);
    expect(bare.body).toContain('A reason is required.');

    const approved = await act(owner, { action: 'approve', verification_id: approve.verification });
    expect(approved.statusCode, approved.body).toBe(303);
    expect(approved.headers.location).toContain('done=kyc_approved');
    expect(
      (
        await act(owner, {
          action: 'reject',
          verification_id: reject.verification,
          reason: 'The document is expired.',
        })
      ).statusCode,
    ).toBe(303);
    const informed = await post(page('kyc', 'production'), owner.cookie, {
      csrf,
      action: 'request_information',
      verification_id: inform.verification,
      fields: 'date_of_birth',
      reason: 'The date of birth does not match the document.',
    });
    expect(informed.statusCode, informed.body).toBe(303);

    const state = async (u: { userId: string }) =>
      (await f.t.call('GET', `/api/v2/kyc?user_id=${u.userId}`, { token: f.production })).json();
    expect((await state(approve)).status).toBe('approved');
    expect(await state(reject)).toMatchObject({ status: 'rejected', reason: 'The document is expired.' });
    expect(await state(inform)).toMatchObject({
      status: 'needs_information',
      required_fields: ['date_of_birth'],
    });

    const audit = await get(page('audit'), owner.cookie);
    for (const [action, u] of [
      ['kyc.approved', approve],
      ['kyc.rejected', reject],
      ['kyc.information_requested', inform],
    ] as const) {
      expect(audit.body).toMatch(
        new RegExp(
          `${action.replace('.', '\\.')}</td><td>[^<]*${u.verification}|${action.replace('.', '\\.')}[\\s\\S]{0,200}${u.verification}`,
        ),
      );
    }
    const after = await get(page('kyc', 'production'), owner.cookie);
    expect(after.body).toContain('No verification is waiting for review.');
  });
});

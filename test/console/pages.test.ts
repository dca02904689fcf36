import { beforeAll, describe, expect, it } from 'vitest';
import { useCards } from '../cards/helpers.ts';
import { connectedUser } from '../helpers/fixtures.ts';
import { consoleSteps, type SignedIn } from './helpers.ts';

/**
 * The console's read pages over HTTP: events (filters, JSON, paging), users, cards and transactions,
 * the company wallet and its flows; each scoped to the organization and mode, and a GET changes nothing.
 */
const f = useCards();
const { member, get, page } = consoleSteps(f);

let owner: SignedIn;
let viewer: SignedIn;
let approved: string;
let plain: string;
let card: { id: string; last4: string };
let otherCard: { id: string; last4: string };

/** The events table of an events page (the type picker names every type too). */
const table = (html: string) => /<table id="events">[\s\S]*?<\/table>/.exec(html)![0];

/** Rows of the database a GET must not add to (wallets and accounts opened on first use). */
const counts = async () => ({
  accounts: (await f.t.ctx.db.selectFrom('ledger_accounts').select('id').execute()).length,
  wallets: (await f.t.ctx.db.selectFrom('company_wallets').select('organization_id').execute()).length,
  events: (await f.t.ctx.db.selectFrom('events').select('id').execute()).length,
});

beforeAll(async () => {
  owner = await member('owner');
  viewer = await member('viewer');
  approved = await f.approvedUser(5000);
  plain = await f.connectedUser();
  const created = await f.createCard(approved, 2000);
  card = { id: created.id as string, last4: created.last4 as string };
  f.t.clock.advance(1);
  await f.authorize(card.id, 725, 'Corner <Shop>');
  f.t.clock.advance(1);
  const other = await f.createCard(approved, 1000, 'single_use');
  otherCard = { id: other.id as string, last4: other.last4 as string };
});

describe('the events page', () => {
  it('lists the newest first, filters by type, card and user, and shows an event’s JSON', async () => {
    const all = await get(page('events'), viewer.cookie);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.body).toContain('aria-current="page">Events');
    const types = [...all.body.matchAll(/<tr><td>[^<]*<\/td><td>([a-z_.]+)<\/td>/g)].map((m) => m[1]);
    expect(types[0]).toBe('card.created');
    expect(types).toContain('transaction.authorized');
    expect(types).toContain('cardholder.created');

    const authorized = await get(`${page('events')}?type=transaction.authorized`, viewer.cookie);
    const ids = [...authorized.body.matchAll(/events\/(evt_[A-Za-z0-9]+)"/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(1);
    expect(table(authorized.body)).not.toContain('>card.created<');

    const ofCard = await get(`${page('events')}?card=${card.id}`, viewer.cookie);
    expect(table(ofCard.body)).toContain('>transaction.authorized<');
    expect(table(ofCard.body)).toContain('>card.created<');
    const ofOther = await get(`${page('events')}?card=${otherCard.id}&type=card.created`, viewer.cookie);
    expect([...ofOther.body.matchAll(/events\/(evt_[A-Za-z0-9]+)"/g)]).toHaveLength(1);

    // A user's events: those naming them, their cards or their cardholder record.
    const ofUser = await get(`${page('events')}?user=${approved}`, viewer.cookie);
    expect(table(ofUser.body)).toContain('>identity.verification.updated<');
    expect(table(ofUser.body)).toContain('>cardholder.created<');
    expect(table(ofUser.body)).toContain('>transaction.authorized<');
    const ofPlain = await get(`${page('events')}?user=${plain}`, viewer.cookie);
    expect(ofPlain.body).toContain('No events match.');
    // A card that is not the user's: nothing.
    const mismatch = await get(`${page('events')}?user=${plain}&card=${card.id}`, viewer.cookie);
    expect(mismatch.body).toContain('No events match.');

    const detail = await get(`${page('events')}/${ids[0]}`, viewer.cookie);
    expect(detail.statusCode).toBe(200);
    const json = /<pre id="event-json">([\s\S]*?)<\/pre>/.exec(detail.body)![1]!;
    const event = JSON.parse(
      json
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&'),
    );
    expect(event).toEqual(
      expect.objectContaining({ id: ids[0], type: 'transaction.authorized', livemode: false }),
    );
    expect(event.data).toEqual(
      expect.objectContaining({ card_id: card.id, amount_cents: 725, merchant: 'Corner <Shop>' }),
    );
    expect(detail.body).not.toContain('Corner <Shop>');
  });

  it('pages through older events, with and without a user filter', async () => {
    // 55 events naming the plain user, a millisecond apart.
    for (let i = 0; i < 55; i++) {
      f.t.clock.advance(1);
      await f.t.ctx.events.emit(f.t.ctx.db, {
        organizationId: f.org.organization_id,
        livemode: false,
        type: 'reward.earned',
        data: { user_id: plain, n: i },
      });
    }
    for (const filter of ['type=reward.earned', `user=${plain}`]) {
      const first = await get(`${page('events')}?${filter}`, viewer.cookie);
      const ids = [...first.body.matchAll(/events\/(evt_[A-Za-z0-9]+)"/g)].map((m) => m[1]!);
      expect(ids).toHaveLength(50);
      const older = /<a id="older" href="([^"]+)"/.exec(first.body)![1]!.replace(/&amp;/g, '&');
      expect(older).toContain(`before=${ids[49]}`);
      const second = await get(older, viewer.cookie);
      const more = [...second.body.matchAll(/events\/(evt_[A-Za-z0-9]+)"/g)].map((m) => m[1]!);
      expect(more).toHaveLength(5);
      expect(more.filter((id) => ids.includes(id))).toEqual([]);
      expect(second.body).not.toContain('id="older"');
    }
  });

  it('refuses a malformed filter (400) and another organization’s or mode’s event (404)', async () => {
    for (const query of ['type=card.nope', 'user=card_x', 'card=%3Cb%3E', 'before=nope']) {
      const response = await get(`${page('events')}?${query}`, viewer.cookie);
      expect(response.statusCode, query).toBe(400);
      expect(response.body).not.toContain('<b>');
    }
    const theirs = await f.t.createOrg('Elsewhere');
    const foreign = await f.t.ctx.events.emit(f.t.ctx.db, {
      organizationId: theirs.organization_id,
      livemode: false,
      type: 'balance.low',
      data: {},
    });
    expect((await get(`${page('events')}/${foreign.id}`, owner.cookie)).statusCode).toBe(404);
    const ours = await f.t.ctx.db
      .selectFrom('events')
      .select('id')
      .where('organization_id', '=', f.org.organization_id)
      .executeTakeFirstOrThrow();
    expect((await get(`${page('events', 'production')}/${ours.id}`, owner.cookie)).statusCode).toBe(404);
    const production = await get(page('events', 'production'), owner.cookie);
    expect(production.body).toContain('No events match.');
  });
});

describe('the users page', () => {
  it('lists the connected users with connection, KYC, cards by last4 and wallet; a GET opens nothing', async () => {
    const before = await counts();
    const list = await get(page('users'), viewer.cookie);
    expect(list.statusCode).toBe(200);
    const row = (id: string) =>
      new RegExp(`<tr><td><a href="[^"]+/users/${id}">[\\s\\S]*?</tr>`).exec(list.body)![0];
    expect(row(approved)).toContain('approved');
    expect(row(approved)).toContain(`•${card.last4}`);
    expect(row(approved)).toContain('$20.00'); // 50.00 funded, 20.00 + 10.00 onto cards
    expect(row(approved)).toContain('>connected<');
    expect(row(plain)).toContain('not started');
    expect(row(plain)).toContain('$0.00');
    expect(await counts()).toEqual(before);
  });

  it('shows one user: wallet, verification, connections, cards and transactions; disconnected once revoked', async () => {
    const detail = await get(`${page('users')}/${approved}`, viewer.cookie);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toMatch(/id="wallet-balance">\$20\.00/);
    expect(detail.body).toMatch(/id="kyc-status">approved/);
    expect(detail.body).toContain(`•${card.last4}`);
    expect(detail.body).toContain('$7.25');
    expect(detail.body).toContain('Corner &lt;Shop&gt;');
    expect(detail.body).toContain('PENDING');
    expect(detail.body).toContain(`events?user=${approved}`);
    await f.t.ctx.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: f.t.clock.now() })
      .where('connection_id', 'in', (eb) =>
        eb.selectFrom('connections').select('id').where('user_id', '=', approved),
      )
      .execute();
    const after = await get(`${page('users')}/${approved}`, viewer.cookie);
    expect(after.body).toContain('>disconnected<');
  });

  it('answers 404 for a user of another organization or mode', async () => {
    const theirs = await f.t.createOrg('Other users');
    const stranger = await connectedUser(f.t, await f.t.platformToken(theirs.sandbox));
    expect((await get(`${page('users')}/${stranger}`, owner.cookie)).statusCode).toBe(404);
    expect((await get(`${page('users', 'production')}/${approved}`, owner.cookie)).statusCode).toBe(404);
    expect((await get(`${page('users')}/nonsense`, owner.cookie)).statusCode).toBe(404);
    const production = await get(page('users', 'production'), owner.cookie);
    expect(production.body).not.toContain(approved);
  });
});

describe('the cards page', () => {
  it('lists cards (last4, status, balance, user) and transactions (amount, merchant, status)', async () => {
    const response = await get(page('cards'), viewer.cookie);
    expect(response.statusCode).toBe(200);
    const cards = /<section id="cards">[\s\S]*?<\/section>/.exec(response.body)![0];
    expect(cards).toContain(`•${card.last4}`);
    expect(cards).toContain(`•${otherCard.last4}`);
    expect(cards).toContain('$12.75'); // 20.00 less the 7.25 held
    expect(cards).toContain(`users/${approved}`);
    expect(cards).toContain('single use');
    const transactions = /<section id="transactions">[\s\S]*?<\/section>/.exec(response.body)![0];
    expect(transactions).toContain('$7.25');
    expect(transactions).toContain('Corner &lt;Shop&gt;');
    expect(transactions).toContain('PENDING');
    const production = await get(page('cards', 'production'), viewer.cookie);
    expect(production.body).not.toContain(card.id);
  });
});

describe('the company wallet page', () => {
  it('shows an unfunded wallet without opening it, then the balance and the company-funded flows', async () => {
    const before = await counts();
    const empty = await get(page('wallet'), viewer.cookie);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('Not funded yet');
    expect(await counts()).toEqual(before);

    const funded = await f.t.call('POST', '/api/v2/simulate/company_funding', {
      token: f.sandbox,
      body: { amount_cents: 100_000 },
    });
    expect(funded.statusCode, funded.body).toBe(200);
    f.t.clock.advance(1);
    const started = await f.t.call('POST', '/api/v2/cards', {
      token: f.sandbox,
      body: { user_id: approved, amount_cents: 3000, type: 'multi_use', funding: 'company' },
    });
    expect(started.statusCode, started.body).toBe(202);
    const flow = started.json();
    const page2 = await get(page('wallet'), viewer.cookie);
    expect(page2.body).toMatch(/id="pool-balance">\$[\d,]+\.\d\d/);
    const flows = /<table id="flows">[\s\S]*?<\/table>/.exec(page2.body)![0];
    expect(flows).toContain(flow.transfer_id);
    expect(flows).toContain('$30.00');
    expect(flows).toContain(`users/${approved}`);
    const production = await get(page('wallet', 'production'), viewer.cookie);
    expect(production.body).toContain('Not funded yet');
    expect(production.body).not.toContain(flow.transfer_id);
  });
});

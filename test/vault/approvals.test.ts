import { describe, expect, it } from 'vitest';
import { Worker } from '../../src/jobs/worker.ts';
import { connectUser, uniqueEmail } from '../helpers/fixtures.ts';
import { SoftAuthenticator } from '../helpers/soft-authenticator.ts';
import { usePurchases } from '../purchases/helpers.ts';
import { ceremony, csrfOf, decide, page, vaultUser } from './helpers.ts';

const f = usePurchases();
const APPROVAL_URL = /^http:\/\/purser\.test\/approve\/apv_[0-9A-Za-z]{43}$/;

/** A coffee cart of this shopper: 2 lattes and a croissant (15.24 USD). */
async function coffeeCart(token: string) {
  const turn = await f.turn(token, { ask: '2 lattes and a croissant from coffee' });
  return { conversation: turn.conversation_id, hash: turn.cart!.hash, total: turn.cart!.totalCents };
}

async function orders(conversationId: string) {
  return f.t.ctx.db.selectFrom('orders').selectAll().where('conversation_id', '=', conversationId).execute();
}

async function eventsOf(type: string, authorizationId: string) {
  return (await f.events(type)).filter((data) => data.authorization_id === authorizationId);
}

async function authorizationOf(conversationId: string) {
  return f.t.ctx.db
    .selectFrom('checkout_authorizations')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
}

describe('payment approvals on /buy', () => {
  it('a vault confirm pauses with vault_approval_required and an approval_url; approving places exactly that cart once', async () => {
    const { token, userId } = await f.shopper(0);
    const { authenticator } = await vaultUser(f, userId);
    const cart = await coffeeCart(token);

    const paused = await f.turn(token, {
      confirm: cart.hash,
      conversation_id: cart.conversation,
      payment_source: 'vault',
    });
    expect(paused).toMatchObject({
      status: 'declined',
      decline_code: 'vault_approval_required',
      charge_status: 'none',
      order_id: null,
    });
    expect(paused.approval_url).toMatch(APPROVAL_URL);
    expect(await orders(cart.conversation)).toEqual([]);
    const authorization = await authorizationOf(cart.conversation);
    // Only the digest of the link's token is kept, and the log never has it.
    const token_ = (paused.approval_url as string).split('/').at(-1) as string;
    expect(JSON.stringify(authorization)).not.toContain(token_);
    expect(f.t.logs.text).not.toContain(token_);

    // The page shows the merchant, the exact lines and the total; opening it changes nothing.
    const shown = await page(f, new URL(paused.approval_url as string).pathname);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['permissions-policy']).toContain('publickey-credentials-get=(self)');
    expect(shown.body).toContain('Sandbox Coffee');
    expect(shown.body).toContain('2 × ');
    expect(shown.body).toContain('$15.24');
    expect(shown.body).toContain('Visa •••• 4242');
    expect((await authorizationOf(cart.conversation)).status).toBe('pending');

    const approved = await decide(f, paused.approval_url as string, authenticator, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    const { order_id: orderId, status } = approved.json();
    expect(status).toBe('approved');
    expect(orderId).toMatch(/^ord_/);
    const [order] = await orders(cart.conversation);
    expect(order).toMatchObject({ id: orderId, status: 'confirmed', cart_hash: cart.hash });

    // Approving again (a second passkey assertion) places nothing new.
    const again = await decide(f, paused.approval_url as string, authenticator, 'approve');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().order_id).toBe(orderId);
    expect(await orders(cart.conversation)).toHaveLength(1);
    expect((await f.events('order.placed')).filter((d) => d.order_id === orderId)).toHaveLength(1);

    expect(await eventsOf('checkout_authorization.approved', authorization.id)).toEqual([
      { authorization_id: authorization.id, amount_display: '$15.24', reason: 'vault' },
    ]);
    // The vault card paid: its charge went through the wallet, which is back where it was.
    expect(await f.wallet(userId)).toBe(0);

    const read = await f.t.call('GET', `/buy/conversations/${cart.conversation}`, { token });
    expect(read.json().orders).toEqual([expect.objectContaining({ order_id: orderId, status: 'confirmed' })]);
    expect(read.json()).toMatchObject({
      status: 'order_placed',
      carts: [],
      last_checkout: { hashes: [cart.hash], status: 'order_placed', order_id: orderId },
    });
    // A confirm of the placed hash answers the order.
    const repeat = await f.turn(token, {
      confirm: cart.hash,
      conversation_id: cart.conversation,
      payment_source: 'vault',
    });
    expect(repeat).toMatchObject({ status: 'order_placed', order_id: orderId });
    // The user's own card paid, and the envelope says which (spec: `payment_source`).
    expect(repeat.payment_source).toEqual({ source: 'vault', brand: 'visa', last4: '4242' });
  });

  it('a vault card pays only the final amount: the rest of the ceiling goes back to the card', async () => {
    const { token, userId } = await f.shopper(0);
    const { authenticator } = await vaultUser(f, userId);
    const turn = await f.turn(token, { ask: '2 milk from grocery' });
    const cart = turn.cart!;
    expect(cart.approvedCeilingCents).toBeGreaterThan(cart.totalCents);
    const paused = await f.turn(token, {
      confirm: cart.hash,
      conversation_id: turn.conversation_id,
      payment_source: 'vault',
    });
    const shown = await page(f, new URL(paused.approval_url as string).pathname);
    expect(shown.body).toContain('id="approval-ceiling"');
    const approved = await decide(f, paused.approval_url as string, authenticator, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    const [order] = await orders(turn.conversation_id);
    expect(Number(order?.final_cents)).toBeLessThan(cart.approvedCeilingCents as number);
    const transfers = await f.t.ctx.db
      .selectFrom('ledger_transfers')
      .select(['id', 'amount', 'code'])
      .where('code', 'in', ['vault_card_charge', 'vault_card_refund'])
      .execute();
    const authorization = await authorizationOf(turn.conversation_id);
    const suffix = authorization.id.slice('cha_'.length);
    const charge = transfers.find((t) => t.id === `vcc_${suffix}`);
    const refund = transfers.find((t) => t.id === `vcr_${suffix}`);
    expect(Number(charge?.amount)).toBe(cart.approvedCeilingCents);
    expect(Number(charge?.amount) - Number(refund?.amount)).toBe(Number(order?.final_cents));
    expect(await f.wallet(userId)).toBe(0);
    expect(authorization.card_settled_at).not.toBeNull();
  });

  it('added_card is byoc_approval_required; no card in the vault is vault_card_required', async () => {
    const { token, userId } = await f.shopper(0);
    const cart = await coffeeCart(token);
    const none = await f.turn(token, {
      confirm: cart.hash,
      conversation_id: cart.conversation,
      payment_source: 'added_card',
    });
    expect(none).toMatchObject({ decline_code: 'vault_card_required', approval_url: null });

    await vaultUser(f, userId);
    const paused = await f.turn(token, {
      confirm: cart.hash,
      conversation_id: cart.conversation,
      payment_source: 'added_card',
    });
    expect(paused).toMatchObject({ status: 'declined', decline_code: 'byoc_approval_required' });
    expect(paused.approval_url).toMatch(APPROVAL_URL);
    expect((await authorizationOf(cart.conversation)).reason).toBe('added_card');
  });

  it('above the organization threshold a balance confirm waits for approval, and the wallet pays', async () => {
    const { token, userId } = await f.shopper(5_000);
    const { authenticator } = await vaultUser(f, userId, false);
    await f.t.ctx.vault.setApprovalThreshold(f.org.organization_id, 1_000);
    try {
      const cart = await coffeeCart(token);
      const paused = await f.turn(token, { confirm: cart.hash, conversation_id: cart.conversation });
      expect(paused).toMatchObject({ status: 'declined', decline_code: 'vault_approval_required' });
      expect(await f.wallet(userId)).toBe(5_000);
      const shown = await page(f, new URL(paused.approval_url as string).pathname);
      expect(shown.body).toContain('Your wallet balance');
      const approved = await decide(f, paused.approval_url as string, authenticator, 'approve');
      expect(approved.statusCode, approved.body).toBe(200);
      expect(await f.wallet(userId)).toBe(5_000 - cart.total);
      const authorization = await authorizationOf(cart.conversation);
      expect(await eventsOf('checkout_authorization.approved', authorization.id)).toEqual([
        { authorization_id: authorization.id, amount_display: '$15.24', reason: 'threshold' },
      ]);

      // At or under the threshold nothing waits.
      await f.t.ctx.vault.setApprovalThreshold(f.org.organization_id, 100_000);
      const small = await coffeeCart(token);
      const placed = await f.turn(token, { confirm: small.hash, conversation_id: small.conversation });
      expect(placed.status).toBe('order_placed');
    } finally {
      await f.t.ctx.vault.setApprovalThreshold(f.org.organization_id, null);
    }
  });

  it('a user with no passkey cannot decide: the ceremony is 403 passkey_required, nothing is charged', async () => {
    const { token, userId } = await f.shopper(5_000);
    await f.t.ctx.vault.setApprovalThreshold(f.org.organization_id, 1_000);
    try {
      const cart = await coffeeCart(token);
      const paused = await f.turn(token, { confirm: cart.hash, conversation_id: cart.conversation });
      expect(paused).toMatchObject({ status: 'declined', decline_code: 'vault_approval_required' });
      const path = new URL(paused.approval_url as string).pathname;
      const csrf = csrfOf((await page(f, path)).body);
      const options = await f.t.call('POST', `${path}/webauthn/options`, {
        body: { purpose: 'decide', decision: 'approve', csrf },
      });
      expect(options.statusCode, options.body).toBe(403);
      expect(options.json().error.code).toBe('passkey_required');
      expect((await authorizationOf(cart.conversation)).status).toBe('pending');
      expect(await f.wallet(userId)).toBe(5_000);
    } finally {
      await f.t.ctx.vault.setApprovalThreshold(f.org.organization_id, null);
    }
  });

  it('decline charges nothing and fires checkout_authorization.declined; the approval is then closed', async () => {
    const { token, userId } = await f.shopper(0);
    const { authenticator } = await vaultUser(f, userId);
    const cart = await coffeeCart(token);
    const paused = await f.turn(token, {
      confirm: cart.hash,
      conversation_id: cart.conversation,
      payment_source: 'vault',
    });
    const declined = await decide(f, paused.approval_url as string, authenticator, 'decline');
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({ status: 'declined', order_id: null });
    const authorization = await authorizationOf(cart.conversation);
    expect(await eventsOf('checkout_authorization.declined', authorization.id)).toEqual([
      { authorization_id: authorization.id, amount_display: '$15.24', reason: 'vault' },
    ]);
    expect(await orders(cart.conversation)).toEqual([]);
    expect(await f.wallet(userId)).toBe(0);
    const path = new URL(paused.approval_url as string).pathname;
    const late = await f.t.call('POST', `${path}/webauthn/options`, {
      body: { csrf: csrfOf((await page(f, path)).body), purpose: 'decide', decision: 'approve' },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('approval_closed');
    expect((await page(f, new URL(paused.approval_url as string).pathname)).body).toContain(
      'You declined this payment',
    );
  });

  it('a confirm of the same cart from the wallet ends the waiting link: its card is never charged', async () => {
    const { token, userId } = await f.shopper(5_000);
    await vaultUser(f, userId);
    const cart = await coffeeCart(token);
    const paused = await f.turn(token, {
      confirm: cart.hash,
      conversation_id: cart.conversation,
      payment_source: 'vault',
    });
    const authorization = await authorizationOf(cart.conversation);
    const placed = await f.turn(token, { confirm: cart.hash, conversation_id: cart.conversation });
    expect(placed).toMatchObject({ status: 'order_placed', payment_source: { source: 'balance' } });
    expect(await f.wallet(userId)).toBe(5_000 - cart.total);
    expect((await authorizationOf(cart.conversation)).status).toBe('expired');
    expect(await eventsOf('checkout_authorization.expired', authorization.id)).toEqual([
      { authorization_id: authorization.id, amount_display: '$15.24', reason: 'vault' },
    ]);
    const path = new URL(paused.approval_url as string).pathname;
    const late = await f.t.call('POST', `${path}/webauthn/options`, {
      body: { csrf: csrfOf((await page(f, path)).body), purpose: 'decide', decision: 'approve' },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('approval_closed');
    const charges = await f.t.ctx.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('code', '=', 'vault_card_charge')
      .where('id', '=', `vcc_${authorization.id.slice('cha_'.length)}`)
      .execute();
    expect(charges).toEqual([]);
    expect(await f.wallet(userId)).toBe(5_000 - cart.total);
    await f.expectSound();
  });

  it('expires after CHECKOUT_APPROVAL_TTL_SECONDS (15 minutes): the worker fires .expired, nothing is charged', async () => {
    const { token, userId } = await f.shopper(0);
    const { authenticator } = await vaultUser(f, userId);
    const cart = await coffeeCart(token);
    const paused = await f.turn(token, {
      confirm: cart.hash,
      conversation_id: cart.conversation,
      payment_source: 'vault',
    });
    const authorization = await authorizationOf(cart.conversation);
    expect(Number(authorization.expires_at) - Number(authorization.created_at)).toBe(15 * 60 * 1000);
    f.t.clock.advance(15 * 60 * 1000);
    const path = new URL(paused.approval_url as string).pathname;
    const shown = await page(f, path);
    expect(shown.statusCode).toBe(410);
    expect(shown.body).toContain('This approval has expired');
    // The page read changed nothing: the worker records the expiry.
    expect((await authorizationOf(cart.conversation)).status).toBe('pending');
    await new Worker(f.t.ctx, { info: () => {}, error: () => {} }).runOnce();
    expect((await authorizationOf(cart.conversation)).status).toBe('expired');
    expect(await eventsOf('checkout_authorization.expired', authorization.id)).toEqual([
      { authorization_id: authorization.id, amount_display: '$15.24', reason: 'vault' },
    ]);
    const options = await f.t.call('POST', `${path}/webauthn/options`, {
      body: { csrf: /data-csrf="([^"]+)"/.exec(shown.body)![1], purpose: 'decide', decision: 'approve' },
    });
    expect(options.statusCode).toBe(409);
    expect(options.json().error.code).toBe('approval_closed');
    expect(await orders(cart.conversation)).toEqual([]);
    expect(await f.wallet(userId)).toBe(0);
    void authenticator;
  });

  it('an approval whose process died before placing is placed by the worker, once', async () => {
    const { token, userId } = await f.shopper(5_000);
    await f.t.ctx.vault.setApprovalThreshold(f.org.organization_id, 1_000);
    try {
      const cart = await coffeeCart(token);
      await f.turn(token, { confirm: cart.hash, conversation_id: cart.conversation });
      const authorization = await authorizationOf(cart.conversation);
      // The approval committed; the process died before the placement.
      await f.t.ctx.db
        .updateTable('checkout_authorizations')
        .set({ status: 'approved', decided_at: f.t.clock.now() })
        .where('id', '=', authorization.id)
        .execute();
      const worker = new Worker(f.t.ctx, { info: () => {}, error: () => {} });
      await worker.runOnce();
      expect(await orders(cart.conversation)).toEqual([]);
      f.t.clock.advance(f.t.ctx.config.purchases.confirmGraceMs);
      await new Worker(f.t.ctx, { info: () => {}, error: () => {} }).runOnce();
      const placed = await orders(cart.conversation);
      expect(placed).toHaveLength(1);
      expect((await authorizationOf(cart.conversation)).order_id).toBe(placed[0]?.id);
      await new Worker(f.t.ctx, { info: () => {}, error: () => {} }).runOnce();
      expect(await orders(cart.conversation)).toHaveLength(1);
      expect(await f.wallet(userId)).toBe(5_000 - cart.total);
    } finally {
      await f.t.ctx.vault.setApprovalThreshold(f.org.organization_id, null);
    }
  });

  it('a replayed assertion is refused: its challenge is used, and a stale counter is refused too', async () => {
    const { token, userId } = await f.shopper(0);
    const { authenticator } = await vaultUser(f, userId);
    const cart = await coffeeCart(token);
    const paused = await f.turn(token, {
      confirm: cart.hash,
      conversation_id: cart.conversation,
      payment_source: 'vault',
    });
    const path = new URL(paused.approval_url as string).pathname;
    let captured: unknown;
    const first = await ceremony(f, path, { purpose: 'decide', decision: 'decline' }, (o) => {
      captured = authenticator.assert(o);
      return captured;
    });
    expect(first.statusCode, first.body).toBe(200);
    const csrf = /data-csrf="([^"]+)"/.exec((await page(f, path)).body)![1];
    const replay = await f.t.call('POST', `${path}/webauthn/verify`, {
      body: { csrf, decision: 'approve', response: captured },
    });
    expect(replay.statusCode).toBe(409); // declined already: closed before any signature counts

    // On a pending approval: the same assertion twice, then an old counter.
    const second = await coffeeCart(token);
    const pausedAgain = await f.turn(token, {
      confirm: second.hash,
      conversation_id: second.conversation,
      payment_source: 'vault',
    });
    const path2 = new URL(pausedAgain.approval_url as string).pathname;
    const csrf2 = /data-csrf="([^"]+)"/.exec((await page(f, path2)).body)![1];
    const replayed = await f.t.call('POST', `${path2}/webauthn/verify`, {
      body: { csrf: csrf2, decision: 'approve', response: captured },
    });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().error.code).toBe('passkey_invalid');
    const stale = await ceremony(f, path2, { purpose: 'decide', decision: 'approve' }, (o) => {
      authenticator.counter = 0; // the counter does not rise: a cloned authenticator
      return authenticator.assert(o);
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.code).toBe('passkey_invalid');
    expect(await orders(second.conversation)).toEqual([]);
  });

  it("another user's passkey, another organization, a forged form: all refused", async () => {
    const { token, userId } = await f.shopper(0);
    await vaultUser(f, userId);
    const cart = await coffeeCart(token);
    const paused = await f.turn(token, {
      confirm: cart.hash,
      conversation_id: cart.conversation,
      payment_source: 'vault',
    });
    const path = new URL(paused.approval_url as string).pathname;
    const stranger = new SoftAuthenticator(f.t.ctx.config.baseUrl);
    const other = await ceremony(f, path, { purpose: 'decide', decision: 'approve' }, (o) =>
      stranger.assert(o),
    );
    expect(other.statusCode).toBe(400);
    expect(other.json().error.code).toBe('passkey_invalid');
    const forged = await f.t.call('POST', `${path}/webauthn/options`, {
      body: { csrf: 'abc.def', purpose: 'decide', decision: 'approve' },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error.code).toBe('csrf_invalid');
    expect((await page(f, '/approve/apv_nothing')).statusCode).toBe(404);

    // Another organization's user cannot read the conversation: 404.
    const otherOrg = await f.t.createOrg('Elsewhere');
    const otherToken = await f.t.platformToken(otherOrg.sandbox);
    const outsider = await connectUser(f.t, otherToken, { email: uniqueEmail('outsider') });
    const read = await f.t.call('GET', `/buy/conversations/${cart.conversation}`, {
      token: outsider.accessToken,
    });
    expect(read.statusCode).toBe(404);
    expect(await orders(cart.conversation)).toEqual([]);
  });

  it('production confirms cannot pay with a vault card (no card acquirer): unsupported_payment_source', async () => {
    const buyer = {
      organizationId: f.org.organization_id,
      livemode: true,
      clientId: 'cli_x',
      buyerId: 'usr_x',
      userId: 'usr_x',
    };
    const envelope = await f.t.ctx.purchases.turn(buyer, { ask: 'a latte from coffee' });
    const confirmed = await f.t.ctx.purchases.turn(buyer, {
      confirm: envelope.cart!.hash,
      conversation_id: envelope.conversation_id,
      payment_source: 'vault',
    });
    expect(confirmed).toMatchObject({ status: 'declined', decline_code: 'unsupported_payment_source' });
  });

  it('a multi-cart confirm from the vault asks to confirm each cart alone; other sources stay unsupported', async () => {
    const { token, userId } = await f.shopper(0);
    await vaultUser(f, userId);
    const turn = await f.turn(token, { ask: 'a latte from coffee and a desk lamp from retail' });
    const both = await f.turn(token, {
      confirm: turn.carts.map((c) => c.hash),
      conversation_id: turn.conversation_id,
      payment_source: 'vault',
    });
    expect(both).toMatchObject({
      status: 'declined',
      decline_code: 'vault_approval_required',
      approval_url: null,
    });
    const company = await f.turn(token, {
      confirm: turn.carts[0]!.hash,
      conversation_id: turn.conversation_id,
      payment_source: 'company_balance',
    });
    expect(company.decline_code).toBe('unsupported_payment_source');
  });
});

import { UsageError } from '../../core/args.ts';
import type { EventType } from '../../domains/events/catalog.ts';
import type { SandboxSteps } from './sandbox.ts';

/**
 * How `purser trigger` produces one event type: `steps` says what it does (shown by `--list`), `run`
 * does it through the services. `unavailable` instead says why no flow of this build can produce it.
 * A scenario may return the event's id when its step answers with it (a test event). `variants`
 * are other stories of the same type, chosen with `--variant NAME` (a decline by the spending
 * controls rather than for funds).
 */
export interface Story {
  steps: string;
  run(s: SandboxSteps): Promise<{ eventId: string } | undefined>;
}
export type Scenario = (Story & { variants?: Record<string, Story> }) | { unavailable: string };

/** Refused before the scenario made anything: the message says what to do instead. */
const refuse = (message: string) => new UsageError(message, false);

/** The share a trigger uses for an organization that shares no rewards (100 %). */
const FULL_SHARE_BPS = 10_000;
const DOLLARS_20 = 2_000;

async function authorized(s: SandboxSteps, charge = 1_200) {
  const card = await s.cardOf(DOLLARS_20);
  return { card, txn: await s.authorize(card, charge) };
}

async function completedFlow(s: SandboxSteps) {
  const transferId = await s.startFlow(DOLLARS_20);
  return s.advanceFlow(transferId);
}

/**
 * Every catalog type and its scenario. Keyed by `EventType`: a type added to the catalog without a
 * scenario (or a reason it has none) does not compile, and test/cli/trigger.test.ts says which.
 */
export const SCENARIOS: Record<EventType, Scenario> = {
  'card.created': {
    steps: 'an approved user, a funded wallet, a multi-use card',
    run: async (s) => {
      await s.cardOf(DOLLARS_20);
      return undefined;
    },
  },
  'card.updated': {
    steps: 'a card, then paused',
    run: async (s) => {
      await s.ctx.cards.pauseCard(s.scope, await s.cardOf(DOLLARS_20));
      return undefined;
    },
  },
  'card.closed': {
    steps: 'a card, then closed (reason manual)',
    run: async (s) => {
      await s.ctx.cards.closeCard(s.scope, await s.cardOf(DOLLARS_20));
      return undefined;
    },
  },
  'cardholder.created': {
    steps: 'a cardholder created as POST /api/v1/cardholders does',
    run: async (s) => {
      const cardholder = await s.ctx.cards.cardholders.create(s.scope, {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        date_of_birth: '1990-12-10',
        phone_number: null,
      });
      s.record('cardholder', cardholder.id);
      return undefined;
    },
  },
  'cardholder.updated': {
    steps: 'a cardholder, then a new last_name',
    run: async (s) => {
      const cardholder = await s.ctx.cards.cardholders.create(s.scope, {
        first_name: 'Ada',
        last_name: 'Byron',
        email: 'ada@example.com',
        date_of_birth: '1990-12-10',
        phone_number: null,
      });
      s.record('cardholder', cardholder.id);
      await s.ctx.cards.cardholders.update(s.scope, cardholder.id, { last_name: 'Lovelace' });
      return undefined;
    },
  },
  'cardholder_onboarding_session.completed': {
    steps:
      'an onboarding session, then its page submitted with new details (a new cardholder, by an email new to the organization)',
    run: async (s) => {
      const session = await s.ctx.onboarding.create(s.scope, {
        external_user_id: 'trigger-user',
        state: 'trigger',
        return_url: 'https://platform.example/onboarding/done',
      });
      s.record('onboarding session', session.id);
      const view = await s.ctx.onboarding.page(
        new URL(session.url as string).pathname.split('/').pop() as string,
      );
      if (typeof view === 'string' || 'completed' in view) throw new Error('the new session is not open');
      await s.ctx.onboarding.act(view.session, {
        purpose: 'details',
        details: {
          first_name: 'Grace',
          last_name: 'Hopper',
          // Not an email the organization already has (that would start a claim, not complete).
          email: 'grace@example.com',
          date_of_birth: '1990-12-10',
          phone_number: '+14155550123',
        },
      });
      return undefined;
    },
  },
  'platform_connect_session.completed': {
    steps:
      'a platform connect session; a member signs in with the emailed code and connects a new organization',
    run: async (s) => {
      const session = await s.ctx.platformConnect.create(s.principal, {
        state: 'trigger',
        return_url: 'https://platform.example/connected',
      });
      s.record('platform connect session', session.id);
      const email = `trigger-${session.id.slice(4).toLowerCase()}@example.com`;
      const { attemptId } = await s.ctx.members.startSignIn(email);
      const sent = (await s.ctx.notifications.sentMessages(1000)).find((m) => m.recipient === email);
      const code = /\b(\d{6})\b/.exec(sent?.body ?? '')?.[1] ?? '';
      const signed = await s.ctx.members.verifySignIn(attemptId, code);
      const member =
        signed.outcome === 'signed_in' ? await s.ctx.members.signedIn(signed.sessionToken) : null;
      const view = await s.ctx.platformConnect.page(
        new URL(session.url as string).pathname.split('/').pop() as string,
      );
      if (!member || typeof view === 'string' || 'completed' in view)
        throw new Error('the member could not sign in on the new session');
      const result = await s.ctx.platformConnect.approve(view.session, member, {
        newOrganizationName: 'Trigger Connected Co',
      });
      if (result.outcome === 'connected' && result.created)
        s.record('connected organization', result.created.organization_id);
      return undefined;
    },
  },
  'merchant.connected': {
    unavailable:
      "fires for live activity only (spec §6): a production link of a cardholder's account at a configured merchant through its OAuth sign-in; a sandbox link fires nothing (docs/merchant-accounts.md)",
  },
  'balance.low': {
    steps: 'a $20 card, then a $15 authorization leaving $5',
    run: async (s) => {
      await authorized(s, 1_500);
      return undefined;
    },
  },
  'transaction.authorized': {
    steps: 'a $20 card, then a $12 authorization',
    run: async (s) => {
      await authorized(s);
      return undefined;
    },
  },
  'transaction.cleared': {
    steps: 'a $20 card, a $12 authorization, then its clearing',
    run: async (s) => {
      const { txn } = await authorized(s);
      await s.ctx.cards.network.clear(s.scope, txn.id);
      return undefined;
    },
  },
  'transaction.declined': {
    steps: 'a $20 card, then a $50 charge (INSUFFICIENT_FUNDS)',
    run: async (s) => {
      await authorized(s, 5_000);
      return undefined;
    },
    variants: {
      spending_controls: {
        steps:
          'a $20 card with a $10 daily spending limit, then a $12 charge ' +
          "(SPENDING_LIMIT_EXCEEDED, naming the card's daily limit in spending_control)",
        run: async (s) => {
          const card = await s.cardOf(DOLLARS_20, {
            spendingControls: { spending_limits: [{ amount_cents: 1_000, interval: 'daily' }] },
          });
          await s.authorize(card, 1_200);
          return undefined;
        },
      },
    },
  },
  'transaction.voided': {
    steps: 'a $20 card, a $12 authorization, then its reversal',
    run: async (s) => {
      const { txn } = await authorized(s);
      await s.ctx.cards.network.void(s.scope, txn.id);
      return undefined;
    },
  },
  'transaction.refunded': {
    steps: 'a $20 card, a $12 authorization, its clearing, then a $5 refund',
    run: async (s) => {
      const { txn } = await authorized(s);
      await s.ctx.cards.network.clear(s.scope, txn.id);
      await s.ctx.cards.network.refund(s.scope, txn.id, { amountCents: 500 });
      return undefined;
    },
  },
  'reward.earned': {
    steps:
      'a card, an authorization and its clearing; an organization that shares no rewards ' +
      '(rewardShareBps 0) gets them at a 100 % share for this sandbox clearing alone (its setting is unchanged)',
    run: async (s) => {
      const { cards } = s.ctx;
      const share = (await cards.revenueConfig(s.scope.organizationId)).rewardShareBps;
      const used = share > 0 ? share : FULL_SHARE_BPS;
      // tokens = floor(settled × interchange × share / 10^8): charge enough to earn at least one.
      const perCent = cards.config.interchangeBps * used;
      const charge = perCent > 0 ? Math.max(DOLLARS_20, Math.ceil(100_000_000 / perCent)) : 0;
      if (charge === 0 || charge > cards.config.maxAmountCents) {
        throw refuse(
          `reward.earned needs an interchange rate whose rewards reach a token within the card limit ` +
            `(INTERCHANGE_BPS is ${cards.config.interchangeBps}).`,
        );
      }
      const card = await s.cardOf(charge);
      const txn = await s.authorize(card, charge);
      await cards.network.clear(s.scope, txn.id, undefined, undefined, { rewardShareBps: used });
      return undefined;
    },
  },
  'card_flow.started': {
    steps: 'a company-funded card: the pool funded, the flow started and run to its card',
    run: async (s) => {
      await completedFlow(s);
      return undefined;
    },
  },
  'card_flow.failed': {
    steps: "a company-funded flow whose user's wallet is spent before its card is minted",
    run: async (s) => {
      const transferId = await s.startFlow(DOLLARS_20);
      const flow = await s.advanceFlow(transferId, 'completed');
      // The transferred money is spent on a card of the user's own: the flow's card cannot be issued.
      await s.card(flow.user_id, DOLLARS_20);
      await s.advanceFlow(transferId);
      return undefined;
    },
  },
  'transfer.approved': {
    steps: 'a company-funded card flow (approved automatically), run to its card',
    run: async (s) => {
      await completedFlow(s);
      return undefined;
    },
  },
  'transfer.initiated': {
    steps: 'a company-funded card flow, run to its card',
    run: async (s) => {
      await completedFlow(s);
      return undefined;
    },
  },
  'transfer.completed': {
    steps: 'a company-funded card flow, run to its card',
    run: async (s) => {
      await completedFlow(s);
      return undefined;
    },
  },
  'transfer.failed': {
    steps: 'a company-funded flow awaiting collection, then collection_failed (ack_denied)',
    run: async (s) => {
      const transferId = await s.startFlow(DOLLARS_20, { ackRequired: true });
      await s.ctx.funding.collectionFailed(s.scope, transferId);
      return undefined;
    },
  },
  'transfer.released': {
    steps: 'a company-funded card, then closed with its balance unused',
    run: async (s) => {
      const flow = await completedFlow(s);
      if (!flow.card_id) throw new Error(`the flow ${flow.transfer_id} ended ${flow.status}, without a card`);
      await s.ctx.cards.closeCard(s.scope, flow.card_id);
      return undefined;
    },
  },
  'wallet.funded': {
    steps: 'a $100 sandbox deposit into the company wallet',
    run: async (s) => {
      await s.ctx.funding.fund(s.scope, 10_000);
      return undefined;
    },
  },
  'wallet.balance.low': {
    steps: "the company wallet's low-balance threshold raised above its balance (a crossing), then put back",
    run: async (s) => {
      const { funding } = s.ctx;
      const before = await funding.wallet(s.scope);
      const threshold = before.low_balance_threshold_cents;
      // At or above the threshold first: the event fires once per crossing from there.
      if (before.balance_cents < threshold) await funding.fund(s.scope, threshold - before.balance_cents);
      const funded = await funding.wallet(s.scope);
      await funding.updateWallet(s.scope, { low_balance_threshold_cents: funded.balance_cents + 1 });
      await funding.updateWallet(s.scope, { low_balance_threshold_cents: threshold });
      return undefined;
    },
  },
  'identity.verification.updated': {
    steps: 'a connected user, then the sandbox verdict approved',
    run: async (s) => {
      await s.approvedUser();
      return undefined;
    },
  },
  'order.placed': {
    steps: 'a connected user with a funded wallet, a /buy cart at the sandbox coffee shop, confirmed',
    run: async (s) => {
      await placeOrder(s);
      return undefined;
    },
  },
  'order.confirmed': {
    steps: 'a sandbox /buy order (sandbox merchants confirm at placement)',
    run: async (s) => {
      await placeOrder(s);
      return undefined;
    },
  },
  'passkey.reset': {
    unavailable:
      'the user proves their email or phone with a one-time code on the hosted reset page, then registers a new passkey: a WebAuthn registration only the user’s authenticator makes (test/vault/passkey-reset-browser.test.ts drives one with a virtual authenticator)',
  },
  'mandate.approved': {
    steps:
      'a connected user, a mandate for the sandbox client, marked approved through the service as the ' +
      'approval page marks it after a passkey signed (no passkey signs: its kept assertion names purser-trigger)',
    run: async (s) => {
      await s.approvedMandate();
      return undefined;
    },
  },
  'mandate.revoked': {
    steps: 'an approved mandate (as mandate.approved), then revoked as DELETE /api/v2/mandates/{id} does',
    run: async (s) => {
      await s.ctx.mandates.revoke(s.scope, await s.approvedMandate());
      return undefined;
    },
  },
  'mandate.exhausted': {
    steps:
      'a connected user with $20, a /buy cart at the sandbox coffee shop, an approved mandate (as mandate.approved) ' +
      'whose total budget is that cart, then the cart confirmed under it',
    run: async (s) => {
      const userId = await s.user();
      await s.fundWallet(userId, DOLLARS_20);
      const buyer = { ...s.scope, clientId: s.principal.clientId, buyerId: userId, userId };
      const asked = await s.ctx.purchases.turn(buyer, { ask: 'a latte from coffee' });
      s.record('conversation', asked.conversation_id);
      if (!asked.cart) throw new Error(`the sandbox coffee shop built no cart: ${asked.reply}`);
      await s.approvedMandate({ userId, budget: { amount_cents: asked.cart.totalCents, interval: 'total' } });
      const placed = await s.ctx.purchases.turn(buyer, {
        conversation_id: asked.conversation_id,
        confirm: asked.cart.hash,
      });
      if (!placed.order_id)
        throw new Error(`the order was not placed: ${placed.decline_code ?? placed.reply}`);
      s.record('order', placed.order_id);
      return undefined;
    },
  },
  'mandate.expired': {
    steps:
      "a pending mandate ending one second from now, then, once past its end, the worker's chore that expires it",
    run: async (s) => {
      const { id } = await s.mandate(1_000);
      // Real time: the end is the service clock's, the patience the command's own.
      const deadline = Date.now() + 10_000;
      while ((await s.ctx.mandates.get(s.scope, id)).status !== 'expired') {
        if (Date.now() > deadline) throw new Error(`the mandate ${id} did not reach its end`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // The chore takes 100 due mandates at a time, the oldest ends first.
      while ((await s.ctx.mandates.expireDue()) === 100);
      return undefined;
    },
  },
  'order.updated': {
    unavailable:
      "a configured ACP merchant's order webhook moves an order's fulfillment (processing, shipped, completed, canceled); sandbox merchants send none (docs/purchases.md)",
  },
  'checkout_authorization.expired': {
    steps:
      'the approval threshold at 1 cent for the run, a /buy cart confirmed twice: the second ' +
      'confirm ends the first approval link (expired), then the threshold is put back',
    run: async (s) => {
      const threshold = await s.ctx.vault.approvalThreshold(s.scope.organizationId);
      await s.ctx.vault.setApprovalThreshold(s.scope.organizationId, 1);
      try {
        const userId = await s.user();
        await s.fundWallet(userId, DOLLARS_20);
        const buyer = { ...s.scope, clientId: s.principal.clientId, buyerId: userId, userId };
        const asked = await s.ctx.purchases.turn(buyer, { ask: 'a latte from coffee' });
        s.record('conversation', asked.conversation_id);
        if (!asked.cart) throw new Error(`the sandbox coffee shop built no cart: ${asked.reply}`);
        const confirm = () =>
          s.ctx.purchases.turn(buyer, { conversation_id: asked.conversation_id, confirm: asked.cart!.hash });
        const paused = await confirm();
        const pending = await s.ctx.purchases.approvals.resolve(
          new URL(paused.approval_url ?? 'http://none/').pathname.split('/').pop() ?? '',
        );
        if (typeof pending === 'string')
          throw new Error(`the confirm did not pause for approval: ${paused.reply}`);
        s.record('checkout authorization', pending.id);
        await confirm();
      } finally {
        await s.ctx.vault.setApprovalThreshold(s.scope.organizationId, threshold);
      }
      return undefined;
    },
  },
  'checkout_authorization.approved': {
    unavailable:
      "the user approves with their passkey on the hosted approval page (a WebAuthn assertion only a user's authenticator makes)",
  },
  'checkout_authorization.declined': {
    unavailable:
      "the user declines with their passkey on the hosted approval page (a WebAuthn assertion only a user's authenticator makes)",
  },
  'webhook_endpoint.test': {
    steps: "a test event to the organization's first active sandbox webhook endpoint",
    run: async (s) => {
      const owner = s.scope;
      const endpoints = await s.ctx.events.listEndpoints(owner, { limit: 100 });
      const endpoint = endpoints.data.find((e) => e.status === 'active');
      if (!endpoint) {
        throw refuse(
          'webhook_endpoint.test goes to a webhook endpoint, and this organization has no active sandbox ' +
            'one: create it with `purser webhook create ORG_ID --mode sandbox --url URL --events "*"`.',
        );
      }
      s.record('webhook_endpoint', endpoint.id);
      const sent = await s.ctx.events.sendTestEvent(owner, endpoint.id, undefined);
      return { eventId: sent.event_id };
    },
  },
};

/** A `/buy` conversation as the user's connection token drives it: ask, then confirm the cart's hash. */
async function placeOrder(s: SandboxSteps): Promise<void> {
  const userId = await s.user();
  await s.fundWallet(userId, DOLLARS_20);
  const buyer = { ...s.scope, clientId: s.principal.clientId, buyerId: userId, userId };
  const { purchases } = s.ctx;
  const asked = await purchases.turn(buyer, { ask: 'a latte from coffee' });
  s.record('conversation', asked.conversation_id);
  if (!asked.cart) throw new Error(`the sandbox coffee shop built no cart: ${asked.reply}`);
  const placed = await purchases.turn(buyer, {
    conversation_id: asked.conversation_id,
    confirm: asked.cart.hash,
  });
  if (!placed.order_id) throw new Error(`the order was not placed: ${placed.decline_code ?? placed.reply}`);
  s.record('order', placed.order_id);
}

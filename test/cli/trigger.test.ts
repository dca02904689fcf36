import { describe, expect, it } from 'vitest';
import { listScenarios, trigger } from '../../src/cli/trigger/command.ts';
import { SCENARIOS } from '../../src/cli/trigger/scenarios.ts';
import { UsageError } from '../../src/core/args.ts';
import { EVENT_TYPES } from '../../src/domains/events/catalog.ts';
import { useCards } from '../cards/helpers.ts';

const f = useCards();

/**
 * The types no flow of this build produces, each with the reason `--list` gives. Explicit: a type
 * leaves this list when its flow is built, and gets a scenario then.
 */
const UNAVAILABLE = [
  'merchant.connected',
  'order.updated',
  'checkout_authorization.approved',
  'checkout_authorization.declined',
  'passkey.reset',
];

const TRANSACTION = ['id', 'card_id', 'last4', 'amount_cents', 'merchant', 'mcc', 'status', 'balance_cents'];
const MANDATE = [
  'object',
  'id',
  'status',
  'approval_url',
  'terms_hash',
  'terms',
  'spent_cents',
  'remaining_cents',
  'created_at',
  'approved_at',
  'expires_at',
  'user_id',
];
const ORDER = ['order_id', 'conversation_id', 'user_id', 'merchant', 'total_cents', 'currency', 'card_id'];

/** The `data` fields of each type (spec §6 "Event catalog"; the shapes it leaves open, as built). */
const DATA_FIELDS: Record<string, string[]> = {
  'card.created': [
    'id',
    'cardholder_id',
    'last4',
    'expiry',
    'spend_limit_cents',
    'balance_cents',
    'status',
    'created_at',
    'transfer_id',
  ],
  'card.updated': ['id', 'cardholder_id', 'last4', 'status', 'balance_cents', 'spend_limit_cents'],
  'card.closed': ['id', 'cardholder_id', 'last4', 'status', 'reason'],
  'cardholder.created': [
    'id',
    'first_name',
    'last_name',
    'email',
    'date_of_birth',
    'phone_number',
    'created_at',
  ],
  'cardholder.updated': [
    'id',
    'first_name',
    'last_name',
    'email',
    'date_of_birth',
    'phone_number',
    'updated_fields',
    'updated_at',
  ],
  'cardholder_onboarding_session.completed': [
    'id',
    'status',
    'cardholder_id',
    'external_user_id',
    'email',
    'claimed_existing_cardholder',
    'state',
    'completed_at',
  ],
  'platform_connect_session.completed': ['session_id', 'state', 'connected_organization_id'],
  'checkout_authorization.expired': ['authorization_id', 'amount_display', 'reason'],
  'balance.low': ['card_id', 'last4', 'balance_cents'],
  'transaction.authorized': TRANSACTION,
  'transaction.cleared': TRANSACTION,
  'transaction.declined': [...TRANSACTION, 'decline_reason'],
  'transaction.voided': [...TRANSACTION, 'released_cents', 'held_cents'],
  'transaction.refunded': [...TRANSACTION, 'type', 'original_transaction_id'],
  'reward.earned': ['tokens', 'merchant', 'card_id', 'user_id'],
  'card_flow.started': [
    'transfer_id',
    'cardholder_id',
    'external_user_id',
    'amount_cents',
    'fee_cents',
    'transfer_cents',
    'ack_required',
    'ack_deadline',
    'client_id',
  ],
  'card_flow.failed': ['transfer_id', 'cardholder_id', 'amount_cents', 'reason', 'funds_status'],
  'transfer.approved': ['transfer_id', 'approved_via'],
  'transfer.initiated': ['transfer_id', 'cardholder_id', 'transfer_cents', 'tx_hash'],
  'transfer.completed': ['transfer_id', 'cardholder_id', 'amount_cents', 'transferred_cents', 'tx_hash'],
  'transfer.failed': ['transfer_id', 'cardholder_id', 'amount_cents', 'reason'],
  'transfer.released': ['transfer_id', 'cardholder_id', 'card_id', 'amount_cents', 'tx_hash'],
  'wallet.funded': ['amount_cents', 'balance_cents', 'tx_hash'],
  'wallet.balance.low': ['balance_cents', 'threshold_cents'],
  'identity.verification.updated': ['user_id', 'status', 'reason', 'required_fields'],
  'order.placed': [...ORDER, 'mandate_id', 'receipt'],
  'order.confirmed': [...ORDER, 'merchant_order_id'],
  'webhook_endpoint.test': ['test', 'endpoint_id', 'message'],
  'mandate.approved': MANDATE,
  'mandate.revoked': MANDATE,
  'mandate.expired': MANDATE,
  'mandate.exhausted': MANDATE,
};

/** What a scenario must leave true beyond the shape: the event is the one its scenario names. */
const EXPECT: Record<string, (data: Record<string, unknown>) => void> = {
  'card.closed': (data) => expect(data.reason).toBe('manual'),
  'transaction.cleared': (data) => expect(data.status).toBe('SETTLED'),
  'transaction.declined': (data) => expect(data.decline_reason).toBe('INSUFFICIENT_FUNDS'),
  'transaction.voided': (data) => expect(data.status).toBe('VOIDED'),
  'transaction.refunded': (data) =>
    expect(data).toMatchObject({ type: 'refund', status: 'SETTLED', amount_cents: 500 }),
  'balance.low': (data) => expect(data.balance_cents).toBe(500),
  'transfer.failed': (data) => expect(data.reason).toBe('ack_denied'),
  'card_flow.failed': (data) => expect(data.reason).toBe('mint_failed'),
  'cardholder.updated': (data) => expect(data.updated_fields).toEqual(['last_name']),
  'identity.verification.updated': (data) => expect(data.status).toBe('approved'),
  'cardholder_onboarding_session.completed': (data) => expect(data.claimed_existing_cardholder).toBe(false),
  'mandate.approved': (data) =>
    expect(data).toMatchObject({ status: 'active', approved_at: expect.any(String) }),
  'mandate.revoked': (data) =>
    expect(data).toMatchObject({ status: 'revoked', approved_at: expect.any(String) }),
  'mandate.exhausted': (data) => expect(data).toMatchObject({ status: 'exhausted', remaining_cents: 0 }),
  'mandate.expired': (data) => expect(data).toMatchObject({ status: 'expired', approved_at: null }),
};

const run = (type: string, extra: { mode?: string; organizationId?: string; variant?: string } = {}) =>
  trigger(f.t.ctx, { type, organizationId: f.org.organization_id, ...extra });

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
}

describe('purser trigger: the catalog', () => {
  // First: later scenarios (platform connect) create organizations of their own.
  it('takes the only organization when --org is left out, and asks for one when there are several', async () => {
    const alone = await trigger(f.t.ctx, { type: 'wallet.funded' });
    expect(alone.organization_id).toBe(f.org.organization_id);
    await f.t.createOrg('Second');
    expect(await refusal(trigger(f.t.ctx, { type: 'wallet.funded' }))).toMatch(/--org ORG_ID/);
  });

  it('has a scenario for every event type of the catalog, or an explicit reason it has none', () => {
    const missing = EVENT_TYPES.filter((type) => SCENARIOS[type] === undefined);
    expect(missing, 'add a scenario for these types in src/cli/trigger/scenarios.ts').toEqual([]);
    const unavailable = listScenarios()
      .filter((entry) => !entry.available)
      .map((entry) => entry.type);
    expect(unavailable).toEqual(UNAVAILABLE);
    for (const type of EVENT_TYPES) {
      if (!UNAVAILABLE.includes(type))
        expect(DATA_FIELDS[type], `the data fields of ${type} in this test`).toBeDefined();
    }
  });
});

describe('purser trigger: every scenario through the services', () => {
  it('reward.earned on an organization that shares no rewards: a full share for that clearing alone', async () => {
    const { ctx } = f.t;
    expect((await ctx.cards.revenueConfig(f.org.organization_id)).rewardShareBps).toBe(0);
    const result = await run('reward.earned');
    // $20 at 100 bps of interchange, all of it shared: 20 tokens.
    expect(result.event.data).toMatchObject({ tokens: 20, user_id: expect.any(String) });
    expect((await ctx.cards.revenueConfig(f.org.organization_id)).rewardShareBps).toBe(0);
    // Any other clearing of the organization still shares nothing.
    const cleared = await run('transaction.cleared');
    const txn = cleared.event.data as { card_id: string };
    const rewards = await ctx.events.listEvents(
      { organizationId: f.org.organization_id, livemode: false },
      { limit: 100 },
    );
    expect(rewards.data.filter((e) => e.type === 'reward.earned' && e.data.card_id === txn.card_id)).toEqual(
      [],
    );
    await f.expectSound();
  });

  it('refuses webhook_endpoint.test while the organization has no sandbox endpoint', async () => {
    expect(await refusal(run('webhook_endpoint.test'))).toMatch(/purser webhook create/);
  });

  for (const type of EVENT_TYPES.filter((t) => !UNAVAILABLE.includes(t))) {
    it(`${type}: the scenario produces the event, recorded with its data`, async () => {
      const { ctx } = f.t;
      if (type === 'reward.earned') await ctx.cards.setRewardShare(f.org.organization_id, 5_000);
      if (type === 'webhook_endpoint.test') {
        await ctx.events.createEndpoint(
          { organizationId: f.org.organization_id, livemode: false },
          { url: 'https://receiver.example.com/hooks', enabled_events: ['webhook_endpoint.test'] },
        );
      }
      // mandate.expired waits for its mandate's end: the test's clock moves meanwhile.
      const ticking = type === 'mandate.expired' ? setInterval(() => f.t.clock.advance(500), 20) : null;
      const result = await run(type).finally(() => clearInterval(ticking ?? undefined));
      expect(result).toMatchObject({ type, organization_id: f.org.organization_id, mode: 'sandbox' });
      const row = await ctx.db
        .selectFrom('events')
        .selectAll()
        .where('id', '=', result.event.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ type, organization_id: f.org.organization_id, livemode: 0 });
      const data = JSON.parse(row.data) as Record<string, unknown>;
      expect(Object.keys(data).sort()).toEqual([...(DATA_FIELDS[type] as string[])].sort());
      expect(result.event.data).toEqual(data);
      EXPECT[type]?.(data);
      // The event names what this run made (a card, a transfer, a user…) where its data names anything.
      const made = new Set(result.created.map((c) => c.id));
      const ids = Object.entries(data).filter(([k, v]) => /(^id|_id)$/.test(k) && typeof v === 'string');
      if (ids.length > 0 && type !== 'webhook_endpoint.test')
        expect(
          ids.some(([, v]) => made.has(v as string)),
          JSON.stringify({ data, made: [...made] }),
        ).toBe(true);
      await f.expectSound();
    });
  }

  for (const type of UNAVAILABLE) {
    it(`${type}: refused as not available, saying why`, async () => {
      expect(await refusal(run(type))).toMatch(
        new RegExp(`^${type.replace('.', '\\.')} is not available: .+`),
      );
    });
  }

  it('transaction.declined --variant spending_controls: a real decline by the engine, naming the control', async () => {
    const result = await run('transaction.declined', { variant: 'spending_controls' });
    expect(result.variant).toBe('spending_controls');
    const data = result.event.data as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual(
      [...(DATA_FIELDS['transaction.declined'] as string[]), 'spending_control'].sort(),
    );
    expect(data).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'SPENDING_LIMIT_EXCEEDED',
      amount_cents: 1_200,
      balance_cents: 2_000,
      spending_control: {
        source: 'card',
        rule: 'spending_limits',
        interval: 'daily',
        limit_cents: 1_000,
        spent_cents: 0,
      },
    });
    // The transaction the API shows, decided by the engine: the card is the run's, nothing moved.
    const made = result.created.find((c) => c.object === 'transaction');
    const txn = await f.t.call('GET', `/api/v2/transactions/${made?.id}`, { token: f.sandbox });
    expect(txn.json()).toMatchObject({
      id: data.id,
      status: 'DECLINED',
      authorization_decided_by: 'engine',
      spending_control: { source: 'card', rule: 'spending_limits' },
    });
    const card = await f.t.call('GET', `/api/v2/cards/${data.card_id}`, { token: f.sandbox });
    expect(card.json()).toMatchObject({
      balance_cents: 2_000,
      spending_controls: { spending_limits: [{ amount_cents: 1_000, interval: 'daily' }] },
    });
    await f.expectSound();
    const listed = listScenarios().find((e) => e.type === 'transaction.declined');
    expect(listed?.variants).toEqual([
      { name: 'spending_controls', scenario: expect.stringMatching(/daily/) },
    ]);
  });

  it('refuses a variant the type does not have, naming those it has', async () => {
    expect(await refusal(run('transaction.declined', { variant: 'nope' }))).toMatch(
      /transaction\.declined has no variant "nope": its variants are spending_controls\./,
    );
    expect(await refusal(run('card.created', { variant: 'spending_controls' }))).toMatch(/it has none/);
  });

  it('refuses production, naming the reason, and unknown types, naming close matches', async () => {
    for (const mode of ['production', 'live']) {
      expect(await refusal(run('card.created', { mode }))).toMatch(/sandbox scenarios only/);
    }
    expect(await refusal(run('transaction.clear'))).toMatch(
      /unknown event type "transaction.clear".*transaction\.cleared/,
    );
    expect(await refusal(run('card.cleared'))).toMatch(/Close matches: .*card\.c/);
  });
});

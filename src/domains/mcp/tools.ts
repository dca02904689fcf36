import * as z from 'zod';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../core/errors.ts';
import { formatMoney } from '../../core/money.ts';
import type { Principal } from '../auth/index.ts';
import { scopeOf } from '../cards/index.ts';
import { BUDGET_INTERVALS, MANDATE_STATUSES } from '../mandates/index.ts';
import type { RecentUsers } from './recent-users.ts';

/** The principal of a connection token: always one user, through one client's connection. */
export type ConnectionPrincipal = Principal & { kind: 'connection'; userId: string; connectionId: string };

/** What a tool runs with: the services, and the connection it acts for (never anyone else). */
export interface ToolCall {
  ctx: AppContext;
  principal: ConnectionPrincipal;
  /** The users read lately (AUTH_CACHE_TTL_MS), for the tools that show the user itself. */
  users: RecentUsers;
}

/** A tool's answer: one line (or a few) for a person, and the same facts as structured content. */
export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run(call: ToolCall, args: z.infer<Input>): Promise<ToolAnswer>;
}

const define = <Input extends z.ZodObject>(tool: ToolDefinition<Input>) => tool as unknown as ToolDefinition;

// ---- schemas shared by several tools

const Cents = (description: string) =>
  z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).describe(description);
const Id = (description: string) => z.string().min(1).max(64).describe(description);
const Paging = {
  limit: z.number().int().min(1).max(100).default(10).describe('How many to return, 1 to 100 (default 10)'),
  starting_after: z
    .string()
    .max(64)
    .optional()
    .describe('The last id of the previous page, to read the next one'),
};

const Controls = z.object({
  allowed_categories: z.array(z.string()),
  blocked_categories: z.array(z.string()),
  allowed_merchant_countries: z.array(z.string()),
  blocked_merchant_countries: z.array(z.string()),
  spending_limits: z.array(
    z.object({
      amount_cents: z.number().int(),
      interval: z.enum(['per_authorization', 'daily', 'weekly', 'monthly', 'yearly', 'all_time']),
      categories: z.array(z.string()).optional(),
    }),
  ),
});

const Card = z.object({
  object: z.literal('card'),
  id: z.string(),
  user_id: z.string(),
  cardholder_id: z.string(),
  type: z.enum(['single_use', 'multi_use']),
  last4: z.string(),
  expiry: z.string().describe('MM/YY'),
  status: z.enum(['ACTIVE', 'PAUSED', 'CLOSED']),
  spend_limit_cents: z.number().int(),
  balance_cents: z.number().int().describe('What the card can still spend'),
  created_at: z.string(),
  closed_reason: z.string().nullable(),
  spending_controls: Controls.describe('Where and how much the card may spend (set by the platform)'),
});
type CardObject = z.infer<typeof Card>;

const Transaction = z.object({
  object: z.literal('transaction'),
  id: z.string(),
  type: z.enum(['purchase', 'refund']),
  card_id: z.string(),
  user_id: z.string(),
  last4: z.string(),
  status: z.enum(['PENDING', 'SETTLED', 'VOIDED', 'DECLINED']),
  amount_cents: z.number().int(),
  authorized_cents: z.number().int(),
  voided_cents: z.number().int().describe('What voids released of the authorization'),
  refunded_cents: z.number().int(),
  original_transaction_id: z.string().nullable(),
  force_posted: z.boolean(),
  merchant: z.string(),
  mcc: z.string().nullable(),
  merchant_country: z.string().nullable(),
  decline_reason: z.string().nullable(),
  spending_control: z
    .object({
      source: z.enum(['card', 'user', 'mandate']),
      rule: z.string(),
      interval: z.string().optional(),
      limit_cents: z.number().int().optional(),
      spent_cents: z.number().int().optional(),
      mandate_id: z.string().optional(),
    })
    .nullable()
    .describe('The spending control, or the term of the mandate the card is held to, that declined it'),
  authorization_decided_by: z
    .enum(['engine', 'platform', 'timeout'])
    .nullable()
    .describe("Who decided it: Purser's engine, the platform, or the platform's on_timeout setting"),
  platform_reason: z
    .string()
    .nullable()
    .describe("The platform's own reason for a PLATFORM_DECLINED decline"),
  created_at: z.string(),
  updated_at: z.string(),
});

const Wallet = z.object({
  object: z.literal('wallet'),
  user_id: z.string(),
  balance_cents: z.number().int().describe('What the user can spend now'),
  pending_cents: z.number().int(),
  currency: z.literal('usd'),
  test_mode: z.boolean(),
});

const Kyc = z.object({
  object: z.literal('kyc'),
  status: z.string(),
  required_fields: z.array(z.string()).optional(),
  iframe_url: z
    .string()
    .optional()
    .describe('The hosted verification page, while the user has something to do'),
  reason: z.string().optional(),
});

/** The API's mandate object (GET /api/v2/mandates/{id}; docs/mandates.md). */
const Mandate = z.object({
  object: z.literal('mandate'),
  id: z.string(),
  status: z.enum(MANDATE_STATUSES),
  approval_url: z
    .string()
    .nullable()
    .describe('The hosted page where the user approves the terms, while pending'),
  terms_hash: z.string().describe('SHA-256 (hex) of the canonical JSON of `terms`: what the user signed'),
  terms: z.object({
    client_id: z.string(),
    description: z.string(),
    currency: z.literal('usd'),
    max_amount_cents: z.number().int().describe('The most one purchase may cost'),
    budget: z.object({
      amount_cents: z.number().int(),
      interval: z.enum(BUDGET_INTERVALS),
    }),
    allowed_categories: z.array(z.string()).nullable().describe('null: every category'),
    allowed_merchants: z.array(z.string()).nullable().describe('null: every merchant'),
    expires_at: z.string(),
  }),
  spent_cents: z.number().int().describe('Spent in the current budget interval'),
  remaining_cents: z.number().int().describe('What the current budget interval has left'),
  created_at: z.string(),
  approved_at: z.string().nullable(),
  expires_at: z.string(),
});
type MandateData = z.infer<typeof Mandate>;

const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });

const NoInput = z.object({});

// ---- helpers

const describeCard = (card: CardObject) =>
  `${card.type === 'single_use' ? 'Single-use' : 'Multi-use'} card ${card.id} ending ${card.last4} (${card.status}` +
  `${card.closed_reason ? `, ${card.closed_reason}` : ''}): ${formatMoney(card.balance_cents)} left of ${formatMoney(card.spend_limit_cents)}.`;

/** Why a charge was declined, in a few words: the reason, and the rule or the platform's own reason. */
function declineText(txn: z.infer<typeof Transaction>): string {
  if (txn.platform_reason) return `${txn.decline_reason}: ${txn.platform_reason}`;
  if (txn.spending_control)
    return `${txn.decline_reason}: ${txn.spending_control.source} ${txn.spending_control.rule}`;
  return txn.decline_reason as string;
}

/** Controls in a sentence: what an assistant reads before it tries to spend. */
function describeControls(controls: CardObject['spending_controls']): string {
  const parts = [
    controls.allowed_categories.length ? `only categories ${controls.allowed_categories.join(', ')}` : '',
    controls.blocked_categories.length ? `not categories ${controls.blocked_categories.join(', ')}` : '',
    controls.allowed_merchant_countries.length
      ? `only merchants in ${controls.allowed_merchant_countries.join(', ')}`
      : '',
    controls.blocked_merchant_countries.length
      ? `not merchants in ${controls.blocked_merchant_countries.join(', ')}`
      : '',
    ...controls.spending_limits.map(
      (limit) =>
        `at most ${formatMoney(limit.amount_cents)} ${limit.interval.replace('_', ' ')}` +
        (limit.categories ? ` in ${limit.categories.join(', ')}` : ''),
    ),
  ].filter(Boolean);
  return parts.length ? `${parts.join('; ')}.` : 'none.';
}

const scope = (call: ToolCall) => scopeOf(call.principal);
const owner = (call: ToolCall) => ({ userId: call.principal.userId, clientId: call.principal.clientId });

/** The card only if this user's connection created it; 404 `not_found` otherwise. */
async function ownCard(call: ToolCall, cardId: string): Promise<void> {
  await call.ctx.cards.requireOwnCard(scope(call), cardId, owner(call));
}

function cardAnswer(card: CardObject, lead: string): ToolAnswer {
  return { text: `${lead} ${describeCard(card)}`, data: card };
}

/** The KYC state as the tool shows it: the platform contract minus what only uploads carry. */
function kycData(state: Awaited<ReturnType<AppContext['kyc']['state']>>) {
  return {
    object: 'kyc' as const,
    status: state.status,
    ...(state.required_fields ? { required_fields: state.required_fields } : {}),
    ...(state.iframe_url ? { iframe_url: state.iframe_url } : {}),
    ...(state.reason ? { reason: state.reason } : {}),
  };
}

/** A purchase conversation's buyer: the token's user, through the token's client. */
const buyer = (call: ToolCall) => ({
  organizationId: call.principal.organizationId,
  livemode: call.principal.livemode,
  clientId: call.principal.clientId,
  buyerId: call.principal.userId,
  userId: call.principal.userId,
});

/** A mandate in a few sentences: its terms, what the current interval has left, its status. */
function describeMandate(m: MandateData): string {
  const { terms } = m;
  const per = terms.budget.interval === 'total' ? 'in all' : `per ${INTERVAL_NOUN[terms.budget.interval]}`;
  const only = [
    terms.allowed_merchants ? `only at ${terms.allowed_merchants.join(', ')}` : '',
    terms.allowed_categories ? `only in categories ${terms.allowed_categories.join(', ')}` : '',
  ].filter(Boolean);
  return (
    `Mandate ${m.id} (${m.status.replace('_', ' ')}): "${terms.description}". Up to ${formatMoney(terms.max_amount_cents)} a purchase, ` +
    `${formatMoney(terms.budget.amount_cents)} ${per}${only.length ? `, ${only.join(', ')}` : ''}; until ${m.expires_at}. ` +
    `${formatMoney(m.spent_cents)} spent, ${formatMoney(m.remaining_cents)} left${terms.budget.interval === 'total' ? '' : ' this ' + INTERVAL_NOUN[terms.budget.interval]}.` +
    (m.approval_url ? ` The user approves it at ${m.approval_url}` : '')
  );
}
const INTERVAL_NOUN = { daily: 'day', weekly: 'week', monthly: 'month', total: 'total' } as const;

/**
 * The mandate `id` if the user gave it to this app (another app's or user's: 404), else this app's
 * newest active mandate of the user, else its newest of any status.
 */
async function ownMandate(call: ToolCall, id: string | undefined) {
  const { principal, ctx } = call;
  if (id !== undefined) {
    const row = await ctx.mandates.owned(scope(call), id).catch(() => null);
    if (!row || row.user_id !== principal.userId || row.client_id !== principal.clientId)
      throw new ApiError(404, 'not_found', 'No such mandate of this app.');
    return ctx.mandates.get(scope(call), id);
  }
  const list = await ctx.mandates.list(scope(call), principal.userId, {
    limit: 100,
    clientId: principal.clientId,
  });
  const mandate = list.data.find((m) => m.status === 'active') ?? list.data[0];
  if (!mandate) throw new ApiError(404, 'not_found', 'The user has given this app no mandate.');
  return mandate;
}

const PurchaseCart = z.looseObject({
  merchant: z.string(),
  merchant_name: z.string(),
  totalCents: z.number().int(),
  hash: z.string(),
  currency: z.string(),
});

// ---- the tools

export const TOOLS: ToolDefinition[] = [
  define({
    name: 'whoami',
    title: 'Who am I',
    description:
      'The user this connection acts for, the app (client) it was made through, the organization and whether it is test mode.',
    input: NoInput,
    output: z.object({
      user: z.object({ id: z.string(), email: z.string().nullable(), phone: z.string().nullable() }),
      client_id: z.string(),
      connection_id: z.string(),
      organization_id: z.string(),
      test_mode: z.boolean(),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call) {
      const { principal } = call;
      const user = await call.users.get(principal.organizationId, principal.livemode, principal.userId);
      if (!user) throw new ApiError(404, 'not_found', 'No such user.');
      const contact = user.email ?? user.phone ?? 'no contact on file';
      return {
        text: `Connected as user ${user.id} (${contact}) through app ${principal.clientId}${principal.livemode ? '' : ', test mode'}.`,
        data: {
          user: { id: user.id, email: user.email, phone: user.phone },
          client_id: principal.clientId,
          connection_id: principal.connectionId,
          organization_id: principal.organizationId,
          test_mode: !principal.livemode,
        },
      };
    },
  }),

  define({
    name: 'get_kyc_status',
    title: 'Identity verification status',
    description:
      "The user's identity verification status (awaiting_documents, needs_information, requires_verification, pending, approved, rejected) and what it still needs.",
    input: NoInput,
    output: Kyc,
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call) {
      const state = kycData(await call.ctx.kyc.state(call.principal, call.principal.userId));
      const needs = state.required_fields?.length
        ? ` Still needed: ${state.required_fields.join(', ')}.`
        : '';
      const reason = state.reason ? ` ${state.reason}` : '';
      return { text: `Identity verification: ${state.status}.${reason}${needs}`, data: state };
    },
  }),

  define({
    name: 'start_kyc',
    title: 'Start identity verification',
    description:
      'A link to the hosted verification page (documents, face scan) for the user to open in a browser. ' +
      'No link once the verification is pending review or decided.',
    input: NoInput,
    output: z.object({ status: z.string(), url: z.string().nullable(), reason: z.string().optional() }),
    annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    async run(call) {
      const state = kycData(await call.ctx.kyc.state(call.principal, call.principal.userId));
      const url = state.iframe_url ?? null;
      const text = url
        ? `Open this link to verify your identity (status ${state.status}): ${url}`
        : `No verification page to open: the verification is ${state.status}.`;
      return { text, data: { status: state.status, url, ...(state.reason ? { reason: state.reason } : {}) } };
    },
  }),

  define({
    name: 'list_connections',
    title: 'Connected apps',
    description:
      'The apps the user is connected to in this organization; `current` marks the one this token belongs to.',
    input: NoInput,
    output: listOf(
      z.object({
        object: z.literal('connection'),
        id: z.string(),
        client_id: z.string(),
        app_name: z.string().nullable(),
        connected_at: z.string(),
        current: z.boolean(),
      }),
    ),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call) {
      const rows = await call.ctx.connect.listConnections(call.principal);
      const data = rows.map((row) => ({
        object: 'connection' as const,
        ...row,
        current: row.id === call.principal.connectionId,
      }));
      const lines = data.map(
        (c) =>
          `- ${c.app_name ?? c.client_id} (${c.id}), connected ${c.connected_at}${c.current ? ' — this app' : ''}`,
      );
      return {
        text: data.length ? `Connected apps:\n${lines.join('\n')}` : 'No connected apps.',
        data: { object: 'list', data, has_more: false },
      };
    },
  }),

  define({
    name: 'revoke_connection',
    title: 'Disconnect this app',
    description:
      "Disconnects this app from the user's account: its access and refresh tokens stop working at once, " +
      'including the one making this call. Other apps are disconnected from the connected-apps page.',
    input: z.object({
      connection_id: Id(
        'The connection to end; must be this app’s own (see list_connections). Default: this one',
      ).optional(),
    }),
    output: z.object({ object: z.literal('connection'), id: z.string(), revoked: z.literal(true) }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run(call, args) {
      const id = args.connection_id ?? call.principal.connectionId;
      await call.ctx.connect.disconnect(call.principal, id);
      return {
        text: `Disconnected ${id}: this app's tokens no longer work; connect again to continue.`,
        data: { object: 'connection', id, revoked: true },
      };
    },
  }),

  define({
    name: 'get_wallet',
    title: 'Wallet',
    description: "The user's wallet: what they can spend now and what is pending.",
    input: NoInput,
    output: Wallet,
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call) {
      const wallet = await call.ctx.cards.wallet(scope(call), call.principal.userId);
      return {
        text: `Wallet: ${formatMoney(wallet.balance_cents)} available, ${formatMoney(wallet.pending_cents)} pending${wallet.test_mode ? ' (test mode)' : ''}.`,
        data: wallet,
      };
    },
  }),

  define({
    name: 'check_balance',
    title: 'Check a balance',
    description:
      "What can be spent: the wallet's available balance, or, with `card_id`, what one of this app's cards can still spend.",
    input: z.object({ card_id: Id('A card this app created; omit for the wallet').optional() }),
    output: z.object({
      source: z.enum(['wallet', 'card']),
      id: z.string(),
      available_cents: z.number().int(),
      currency: z.literal('usd'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call, args) {
      if (args.card_id) {
        await ownCard(call, args.card_id);
        const card = await call.ctx.cards.getCard(scope(call), args.card_id);
        return {
          text: `Card ending ${card.last4} can spend ${formatMoney(card.balance_cents)} (${card.status}).`,
          data: { source: 'card', id: card.id, available_cents: card.balance_cents, currency: 'usd' },
        };
      }
      const wallet = await call.ctx.cards.wallet(scope(call), call.principal.userId);
      return {
        text: `Wallet balance: ${formatMoney(wallet.balance_cents)} available.`,
        data: {
          source: 'wallet',
          id: wallet.user_id,
          available_cents: wallet.balance_cents,
          currency: 'usd',
        },
      };
    },
  }),

  define({
    name: 'list_cards',
    title: 'List cards',
    description: "The user's cards created through this app, newest first.",
    input: z.object({ status: z.enum(['ACTIVE', 'PAUSED', 'CLOSED']).optional(), ...Paging }),
    output: listOf(Card),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call, args) {
      if (args.starting_after) await ownCard(call, args.starting_after);
      const list = await call.ctx.cards.listCards(scope(call), {
        user_id: call.principal.userId,
        client_id: call.principal.clientId,
        limit: args.limit,
        ...(args.status ? { status: args.status } : {}),
        ...(args.starting_after ? { starting_after: args.starting_after } : {}),
      });
      const lines = list.data.map((card) => `- ${describeCard(card)}`);
      const more = list.has_more ? '\nMore cards: pass the last id as starting_after.' : '';
      return {
        text: list.data.length ? `Cards:\n${lines.join('\n')}${more}` : 'No cards.',
        data: list,
      };
    },
  }),

  define({
    name: 'create_card',
    title: 'Create a card',
    description:
      "Issues a prepaid card funded from the user's wallet: `amount_cents` becomes its spend limit and first balance. " +
      'The user must be verified (kyc_required) and the wallet must cover it (insufficient_funds).',
    input: z.object({
      amount_cents: Cents('The spend limit and first balance, in cents'),
      type: z
        .enum(['single_use', 'multi_use'])
        .default('multi_use')
        .describe('single_use closes after its first settled charge'),
      memo: z.string().max(500).optional().describe('A note shown with the card'),
    }),
    output: Card,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(call, args) {
      const card = await call.ctx.cards.createCard(call.principal, {
        user_id: call.principal.userId,
        amount_cents: args.amount_cents,
        type: args.type,
        ...(args.memo !== undefined ? { memo: args.memo } : {}),
      });
      return cardAnswer(card, 'Created.');
    },
  }),

  define({
    name: 'close_card',
    title: 'Close a card',
    description:
      'Closes one of this app’s cards for good; what it can still spend returns to the wallet (to the company for a company-funded card).',
    input: z.object({ card_id: Id('The card to close') }),
    output: Card,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    async run(call, args) {
      await ownCard(call, args.card_id);
      return cardAnswer(await call.ctx.cards.closeCard(scope(call), args.card_id), 'Closed.');
    },
  }),

  define({
    name: 'pause_card',
    title: 'Pause a card',
    description: 'Pauses one of this app’s cards: charges are declined until it is resumed.',
    input: z.object({ card_id: Id('The card to pause') }),
    output: Card,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(call, args) {
      await ownCard(call, args.card_id);
      return cardAnswer(await call.ctx.cards.pauseCard(scope(call), args.card_id), 'Paused.');
    },
  }),

  define({
    name: 'resume_card',
    title: 'Resume a card',
    description: 'Resumes a paused card of this app.',
    input: z.object({ card_id: Id('The card to resume') }),
    output: Card,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(call, args) {
      await ownCard(call, args.card_id);
      return cardAnswer(await call.ctx.cards.resumeCard(scope(call), args.card_id), 'Resumed.');
    },
  }),

  define({
    name: 'update_card_limit',
    title: "Change a card's spend limit",
    description:
      "Sets a multi-use card's spend limit: raising it takes the difference from the wallet (insufficient_funds), " +
      'lowering it returns the difference (spend_limit_below_spent when already spent or held). ' +
      "A company-funded card's limit is the platform's alone (company_funded_card).",
    input: z.object({
      card_id: Id('The multi-use card'),
      spend_limit_cents: Cents('The new spend limit, in cents'),
    }),
    output: Card,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(call, args) {
      await ownCard(call, args.card_id);
      // The user's own token: a company-funded card's limit is not theirs to change.
      const card = await call.ctx.cards.updateSpendLimit(
        scope(call),
        args.card_id,
        args.spend_limit_cents,
        'user',
      );
      return cardAnswer(card, 'Limit updated.');
    },
  }),

  define({
    name: 'get_spending_controls',
    title: 'Read spending controls',
    description:
      "Where and how much the user may spend: the user's spending controls (every card), and a card's own when " +
      '`card_id` is given. A charge must pass both. Only the platform sets them; read them before buying.',
    input: z.object({ card_id: Id('One of this app’s cards').optional() }),
    output: z.object({
      user: Controls.describe("The user's controls, on every card"),
      card: Controls.nullable().describe("The card's own controls (null without card_id)"),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call, args) {
      const {
        object: _,
        user_id: __,
        ...user
      } = await call.ctx.cards.controls.forUser(scope(call), call.principal.userId);
      let card: CardObject['spending_controls'] | null = null;
      if (args.card_id) {
        await ownCard(call, args.card_id);
        card = (await call.ctx.cards.getCard(scope(call), args.card_id)).spending_controls;
      }
      const lines = [`Your controls: ${describeControls(user)}`];
      if (card) lines.push(`Card ${args.card_id}: ${describeControls(card)}`);
      return { text: lines.join('\n'), data: { user, card } };
    },
  }),

  define({
    name: 'list_transactions',
    title: 'List transactions',
    description:
      "Charges on the user's cards created through this app, newest first; `card_id` narrows to one card.",
    input: z.object({ card_id: Id('Only this card').optional(), ...Paging }),
    output: listOf(Transaction),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call, args) {
      if (args.card_id) await ownCard(call, args.card_id);
      const list = await call.ctx.cards.network.listTransactions(scope(call), {
        user_id: call.principal.userId,
        client_id: call.principal.clientId,
        limit: args.limit,
        ...(args.card_id ? { card_id: args.card_id } : {}),
        ...(args.starting_after ? { starting_after: args.starting_after } : {}),
      });
      const lines = list.data.map(
        (txn) =>
          `- ${txn.created_at} ${txn.merchant}: ${formatMoney(txn.amount_cents)} ${txn.status}` +
          `${txn.decline_reason ? ` (${declineText(txn)})` : ''} on card ending ${txn.last4} [${txn.id}]`,
      );
      const more = list.has_more ? '\nMore: pass the last id as starting_after.' : '';
      return {
        text: list.data.length ? `Transactions:\n${lines.join('\n')}${more}` : 'No transactions.',
        data: list,
      };
    },
  }),

  define({
    name: 'fund_wallet',
    title: 'Add test funds (sandbox)',
    description:
      "Test mode only: adds simulated money to the user's wallet. A live connection gets sandbox_only.",
    input: z.object({
      amount_cents: z.number().int().min(1).max(100_000_000).describe('How much to add, in cents'),
    }),
    output: Wallet,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(call, args) {
      const wallet = await call.ctx.cards.fundWallet(call.principal, {
        user_id: call.principal.userId,
        amount_cents: args.amount_cents,
      });
      return {
        text: `Added ${formatMoney(args.amount_cents)} (test mode). Wallet: ${formatMoney(wallet.balance_cents)} available.`,
        data: wallet,
      };
    },
  }),

  define({
    name: 'list_merchants',
    title: 'Merchants',
    description:
      'The merchants purchases can be made at, with their market and whether they are sandbox merchants.',
    input: NoInput,
    output: z.object({
      object: z.literal('list'),
      data: z.array(
        z.object({
          slug: z.string(),
          name: z.string(),
          market: z.object({ countries: z.array(z.string()), currency: z.string() }),
          mcc: z.string().nullable(),
          country: z.string(),
          protocol: z.string(),
          sandbox: z.boolean(),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call) {
      const data = await call.ctx.purchases.merchants();
      const lines = data.map(
        (m) => `- ${m.slug}: ${m.name} (${m.market.currency.toUpperCase()}${m.sandbox ? ', sandbox' : ''})`,
      );
      return { text: `Merchants:\n${lines.join('\n')}`, data: { object: 'list', data } };
    },
  }),

  define({
    name: 'buy',
    title: 'Buy',
    description:
      'One turn of a purchase conversation, as POST /buy: `ask` in plain words builds carts ("2 lattes from coffee"); ' +
      '`confirm` with a cart hash the user approved places exactly that cart and charges their wallet once. Never ' +
      'confirm a hash the user has not seen and approved. Pass `conversation_id` on follow-ups.',
    input: z.object({
      ask: z.string().min(1).max(2000).optional().describe('What the user wants, in plain words'),
      conversation_id: Id('The conversation of an earlier turn').optional(),
      confirm: z
        .union([z.string().min(1).max(128), z.array(z.string().min(1).max(128)).min(1).max(10)])
        .optional()
        .describe('The hash of a cart the user approved, or several'),
    }),
    output: z.looseObject({
      conversation_id: z.string(),
      status: z.enum(['needs_input', 'order_placed', 'partially_placed', 'declined']),
      reply: z.string(),
      carts: z.array(PurchaseCart),
      order_id: z.string().nullable(),
      decline_code: z.string().nullable(),
      charge_status: z.string().nullable(),
      error_code: z.string().nullable(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(call, args) {
      if (args.ask === undefined && args.confirm === undefined)
        throw new ApiError(400, 'invalid_request', 'Send `ask`, `confirm`, or both.');
      const envelope = await call.ctx.purchases.turn(buyer(call), args);
      return { text: envelope.reply, data: envelope as unknown as Record<string, unknown> };
    },
  }),

  define({
    name: 'get_mandate',
    title: 'Spending mandate',
    description:
      'A spending mandate the user signed for this app: its terms (per-purchase maximum, budget and interval, ' +
      'allowed merchants and categories, end) and what the current budget interval has spent and has left. ' +
      'Without `mandate_id`: this app’s newest active mandate (else its newest). Purchases inside an active ' +
      'mandate need no approval by the user.',
    input: z.object({ mandate_id: Id('One of this app’s mandates (mdt_…)').optional() }),
    output: Mandate,
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call, args) {
      const mandate = await ownMandate(call, args.mandate_id);
      return { text: describeMandate(mandate), data: mandate as unknown as Record<string, unknown> };
    },
  }),

  define({
    name: 'get_conversation',
    title: 'Purchase conversation',
    description:
      'A purchase conversation: its open carts, its orders and the last checkout. Read it when a confirm gave no answer.',
    input: z.object({ conversation_id: Id('The conversation to read') }),
    output: z.looseObject({
      object: z.literal('conversation'),
      id: z.string(),
      status: z.string(),
      turn_in_progress: z.boolean(),
      carts: z.array(PurchaseCart),
      orders: z.array(z.looseObject({ order_id: z.string(), status: z.string(), charge_status: z.string() })),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call, args) {
      const conversation = await call.ctx.purchases.conversation(buyer(call), args.conversation_id);
      const orders = conversation.orders.map(
        (o) =>
          `- ${o.order_id} at ${o.merchant_name}: ${o.status}, ${formatMoney(o.total_cents)}, charge ${o.charge_status}`,
      );
      const text = `Conversation ${conversation.id}: ${conversation.carts.length} open cart(s)${orders.length ? `; orders:\n${orders.join('\n')}` : ''}.`;
      return { text, data: conversation as unknown as Record<string, unknown> };
    },
  }),
];

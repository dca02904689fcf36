import * as z from 'zod';
import { formatMoney } from '../../../core/money.ts';
import { INTERVALS, REFUSING_RULES } from '../../cards/index.ts';
import {
  Cents,
  define,
  Id,
  listOf,
  NoInput,
  owner,
  Paging,
  scope,
  type ToolAnswer,
  type ToolCall,
  type ToolDefinition,
} from './kit.ts';

const Controls = z.object({
  allowed_categories: z.array(z.string()),
  blocked_categories: z.array(z.string()),
  allowed_merchant_countries: z.array(z.string()),
  blocked_merchant_countries: z.array(z.string()),
  spending_limits: z.array(
    z.object({
      amount_cents: z.number().int(),
      interval: z.enum(INTERVALS),
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
      rule: z.enum(REFUSING_RULES),
      interval: z.enum(INTERVALS).optional(),
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

/** The card only if this user's connection created it; 404 `not_found` otherwise. */
async function ownCard(call: ToolCall, cardId: string): Promise<void> {
  await call.services.cards.requireOwnCard(scope(call), cardId, owner(call));
}

function cardAnswer(card: CardObject, lead: string): ToolAnswer {
  return { text: `${lead} ${describeCard(card)}`, data: card };
}

/** The wallet, the cards this app created, their controls and their charges. */
export const CARD_TOOLS: ToolDefinition[] = [
  define({
    name: 'get_wallet',
    title: 'Wallet',
    description: "The user's wallet: what they can spend now and what is pending.",
    input: NoInput,
    output: Wallet,
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call) {
      const wallet = await call.services.cards.wallet(scope(call), call.principal.userId);
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
        const card = await call.services.cards.getCard(scope(call), args.card_id);
        return {
          text: `Card ending ${card.last4} can spend ${formatMoney(card.balance_cents)} (${card.status}).`,
          data: { source: 'card', id: card.id, available_cents: card.balance_cents, currency: 'usd' },
        };
      }
      const wallet = await call.services.cards.wallet(scope(call), call.principal.userId);
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
      const list = await call.services.cards.listCards(scope(call), {
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
      const card = await call.services.cards.createCard(call.principal, {
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
      return cardAnswer(await call.services.cards.closeCard(scope(call), args.card_id), 'Closed.');
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
      return cardAnswer(await call.services.cards.pauseCard(scope(call), args.card_id), 'Paused.');
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
      return cardAnswer(await call.services.cards.resumeCard(scope(call), args.card_id), 'Resumed.');
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
      const card = await call.services.cards.updateSpendLimit(
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
      } = await call.services.controls.forUser(scope(call), call.principal.userId);
      let card: CardObject['spending_controls'] | null = null;
      if (args.card_id) {
        await ownCard(call, args.card_id);
        card = (await call.services.cards.getCard(scope(call), args.card_id)).spending_controls;
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
      const list = await call.services.network.listTransactions(scope(call), {
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
      const wallet = await call.services.cards.fundWallet(call.principal, {
        user_id: call.principal.userId,
        amount_cents: args.amount_cents,
      });
      return {
        text: `Added ${formatMoney(args.amount_cents)} (test mode). Wallet: ${formatMoney(wallet.balance_cents)} available.`,
        data: wallet,
      };
    },
  }),
];

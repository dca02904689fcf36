import * as z from 'zod';
import { formatMoney } from '../../../core/money.ts';
import { invalid, missing } from '../../../core/refusal.ts';
import { BUDGET_INTERVALS, MANDATE_STATUSES } from '../../mandates/index.ts';
import { CHARGE_STATUSES, MERCHANT_PROTOCOLS, PURCHASE_STATUSES } from '../../purchases/index.ts';
import { define, Id, NoInput, scope, type ToolCall, type ToolDefinition } from './kit.ts';

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
  const { principal, services } = call;
  if (id !== undefined) {
    const row = await services.mandates.owned(scope(call), id).catch(() => null);
    if (!row || row.user_id !== principal.userId || row.client_id !== principal.clientId)
      throw missing('No such mandate of this app.');
    return services.mandates.get(scope(call), id);
  }
  const list = await services.mandates.list(scope(call), principal.userId, {
    limit: 100,
    clientId: principal.clientId,
  });
  const mandate = list.data.find((m) => m.status === 'active') ?? list.data[0];
  if (!mandate) throw missing('The user has given this app no mandate.');
  return mandate;
}

const PurchaseCart = z.looseObject({
  merchant: z.string(),
  merchant_name: z.string(),
  totalCents: z.number().int(),
  hash: z.string(),
  currency: z.string(),
});

/** Merchants, purchase conversations and the mandates purchases run under. */
export const PURCHASE_TOOLS: ToolDefinition[] = [
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
          protocol: z.enum(MERCHANT_PROTOCOLS),
          sandbox: z.boolean(),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call) {
      const data = await call.services.purchases.merchants();
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
      status: z.enum(PURCHASE_STATUSES),
      reply: z.string(),
      carts: z.array(PurchaseCart),
      order_id: z.string().nullable(),
      decline_code: z.string().nullable(),
      charge_status: z.enum(CHARGE_STATUSES).nullable(),
      error_code: z.string().nullable(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(call, args) {
      if (args.ask === undefined && args.confirm === undefined)
        throw invalid('Send `ask`, `confirm`, or both.');
      const envelope = await call.services.purchases.turn(buyer(call), args);
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
      const conversation = await call.services.purchases.conversation(buyer(call), args.conversation_id);
      const orders = conversation.orders.map(
        (o) =>
          `- ${o.order_id} at ${o.merchant_name}: ${o.status}, ${formatMoney(o.total_cents)}, charge ${o.charge_status}`,
      );
      const text = `Conversation ${conversation.id}: ${conversation.carts.length} open cart(s)${orders.length ? `; orders:\n${orders.join('\n')}` : ''}.`;
      return { text, data: conversation as unknown as Record<string, unknown> };
    },
  }),
];

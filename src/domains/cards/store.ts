import { CompiledQuery, type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import { insertOne, runCompiled, updateById } from '../../db/compiled.ts';
import { dialectOf, lockedOnPostgres } from '../../db/dialect.ts';
import type { Executor } from '../../db/index.ts';
import { olderThan } from '../../db/pagination.ts';
import type {
  AuthorizationEndpointsTable,
  CardDetailRevealsTable,
  CardsTable,
  CardTransactionsTable,
  IssuerReconciliationsTable,
  UserSpendingControlsTable,
} from '../../db/schema.ts';
import type { CodeRanges } from './merchant-categories.ts';

/**
 * The only code that touches cardholders, cards, card transactions, reveals, the platforms'
 * authorization endpoints and the issuer's reconciliations.
 */

/** A card as `lockCardForCharge` reads it: the row, and its user's spending controls. */
type CardForCharge = Selectable<CardsTable> & { purser_user_controls: string | null };

const CARD_FOR_CHARGE_POSTGRES = `with card as (select * from cards where id = $1 for update),
  controls as (select controls from user_spending_controls
    where user_id = (select user_id from card where mandate_id is null) for update)
  select card.*, (select controls from controls) as purser_user_controls,
    (select row_to_json(e) from authorization_endpoints e
      where e.organization_id = card.organization_id and e.livemode = card.livemode) as purser_endpoint
  from card`;

// SQLite's write transaction holds the database's one write lock: nothing to lock row by row.
const CARD_FOR_CHARGE_SQLITE = `select cards.*,
  (select controls from user_spending_controls
    where user_id = cards.user_id and cards.mandate_id is null) as purser_user_controls,
  exists (select 1 from authorization_endpoints e
    where e.organization_id = cards.organization_id and e.livemode = cards.livemode) as purser_has_endpoint
  from cards where id = ?`;

/**
 * The card's own columns of a row that has more, in the table's order (a rest spread of the row
 * took V8's slow path on every charge).
 */
function cardOf(row: Selectable<CardsTable>): Selectable<CardsTable> {
  return {
    id: row.id,
    organization_id: row.organization_id,
    livemode: row.livemode,
    user_id: row.user_id,
    cardholder_id: row.cardholder_id,
    client_id: row.client_id,
    type: row.type,
    status: row.status,
    last4: row.last4,
    expiry: row.expiry,
    pan_sealed: row.pan_sealed,
    cvv_sealed: row.cvv_sealed,
    spend_limit_cents: row.spend_limit_cents,
    memo: row.memo,
    closed_reason: row.closed_reason,
    provider_ref: row.provider_ref,
    transfer_id: row.transfer_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    spending_controls: row.spending_controls,
    mandate_id: row.mandate_id,
  };
}

// ---- cards

export async function insertCard(exec: Executor, row: Insertable<CardsTable>): Promise<void> {
  await insertOne(exec, 'cards', row);
}

export async function card(exec: Executor, organizationId: string, livemode: number, id: string) {
  const [card] = await runCompiled(exec, 'card in scope', [id, organizationId, livemode], () =>
    exec
      .selectFrom('cards')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode),
  );
  return card;
}

export function cardByProviderRef(exec: Executor, providerRef: string) {
  return exec.selectFrom('cards').selectAll().where('provider_ref', '=', providerRef).executeTakeFirst();
}

/**
 * Reads a card to change it. On PostgreSQL the row is locked first, before any ledger row, so
 * everything that moves a card's money queues on the card in one order.
 */
export async function lockCard(exec: Executor, id: string) {
  const [card] = await runCompiled(exec, 'lock card', [id], () =>
    lockedOnPostgres(exec, exec.selectFrom('cards').selectAll().where('id', '=', id)),
  );
  return card;
}

/**
 * Locks a card for a charge and, right after it, its user's spending controls row (absent when the
 * user has none): the lock order of docs/ledger.md. One statement, the controls' lock waiting on
 * the card's on PostgreSQL (its user is read from the locked card). A card held to a mandate gets
 * no controls here (`userControls` null): its mandate's row comes first, then the controls
 * (`CardService.lockForCharge`). The organization's authorization endpoint comes with it:
 * PostgreSQL reads the row (`null`: none); SQLite only whether there is one (`null`: none; absent:
 * there is one, to be read when asked), as the platform is asked only of approvals.
 */
export async function lockCardForCharge(
  exec: Executor,
  id: string,
): Promise<
  | {
      card: Selectable<CardsTable>;
      userControls: string | null;
      /** The organization's authorization endpoint (`null`: none; absent: not read). */
      endpoint?: AuthorizationEndpointsTable | null;
    }
  | undefined
> {
  // One statement for what every charge reads first: on PostgreSQL a round trip each, on SQLite
  // two statements' own cost (a read through better-sqlite3 costs about as much as its SQL).
  if (dialectOf(exec) !== 'postgres') {
    const [row] = await runCompiled<CardForCharge & { purser_has_endpoint: number }>(
      exec,
      'lock card for a charge',
      [id],
      () => ({ compile: () => CompiledQuery.raw(CARD_FOR_CHARGE_SQLITE, [id]) }),
    );
    if (!row) return undefined;
    const card = cardOf(row);
    const userControls = row.purser_user_controls;
    return row.purser_has_endpoint ? { card, userControls } : { card, userControls, endpoint: null };
  }
  const [row] = await runCompiled<CardForCharge & { purser_endpoint: AuthorizationEndpointsTable | null }>(
    exec,
    'lock card for a charge',
    [id],
    () => ({
      compile: () => CompiledQuery.raw(CARD_FOR_CHARGE_POSTGRES, [id]),
    }),
  );
  if (!row) return undefined;
  return { card: cardOf(row), userControls: row.purser_user_controls, endpoint: row.purser_endpoint };
}

export async function updateCard(exec: Executor, id: string, changes: Updateable<CardsTable>): Promise<void> {
  await updateById(exec, 'cards', id, changes);
}

export function listCards(
  exec: Executor,
  filter: {
    organizationId: string;
    livemode: number;
    userId?: string | undefined;
    /** Only the cards this client's token created (the MCP tool server's view of a connection). */
    clientId?: string | undefined;
    status?: CardsTable['status'] | undefined;
    startingAfter?: { created_at: number; id: string } | undefined;
    limit: number;
  },
) {
  let query = exec
    .selectFrom('cards')
    .selectAll()
    .where('organization_id', '=', filter.organizationId)
    .where('livemode', '=', filter.livemode);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.clientId !== undefined) query = query.where('client_id', '=', filter.clientId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.startingAfter) query = query.where(olderThan(filter.startingAfter));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

// ---- transactions

export async function insertTransaction(
  exec: Executor,
  row: Insertable<CardTransactionsTable>,
): Promise<void> {
  await insertOne(exec, 'card_transactions', row);
}

export async function transaction(exec: Executor, organizationId: string, livemode: number, id: string) {
  const [txn] = await runCompiled(exec, 'transaction in scope', [id, organizationId, livemode], () =>
    exec
      .selectFrom('card_transactions')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode),
  );
  return txn;
}

export async function transactionById(exec: Executor, id: string) {
  const [txn] = await runCompiled(exec, 'transaction by id', [id], () =>
    exec.selectFrom('card_transactions').selectAll().where('id', '=', id),
  );
  return txn;
}

/** The latest purchase on the card at this merchant with at least `amount` settled and not yet refunded. */
export function refundablePurchase(
  exec: Executor,
  card: Pick<Selectable<CardsTable>, 'id' | 'organization_id' | 'livemode'>,
  merchant: string,
  amount: number,
) {
  return exec
    .selectFrom('card_transactions')
    .selectAll()
    .where('organization_id', '=', card.organization_id)
    .where('livemode', '=', card.livemode)
    .where('card_id', '=', card.id)
    .where('type', '=', 'purchase')
    .where('merchant', '=', merchant)
    .where(sql<boolean>`settled_cents - refunded_cents >= ${amount}`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Every purchase refunded at all, with what it settled, what it records as refunded and what its refunds sum to. */
export function refundTotals(exec: Executor) {
  return exec
    .selectFrom('card_transactions as p')
    .leftJoin('card_transactions as r', (join) =>
      join.onRef('r.original_transaction_id', '=', 'p.id').on('r.type', '=', 'refund'),
    )
    .select(['p.id', 'p.settled_cents', 'p.refunded_cents'])
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('r.settled_cents'), eb.lit(0)).as('refunds'))
    .where('p.type', '=', 'purchase')
    .where((eb) => eb.or([eb('p.refunded_cents', '>', 0), eb('r.id', 'is not', null)]))
    .groupBy(['p.id', 'p.settled_cents', 'p.refunded_cents'])
    .execute();
}

/** Authorizations still held past their expiry, the oldest first (the worker's sweep voids them). */
export function expiredAuthorizations(exec: Executor, now: number, limit: number) {
  return exec
    .selectFrom('card_transactions')
    .select(['id', 'organization_id', 'livemode'])
    .where('status', '=', 'PENDING')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

export async function updateTransaction(
  exec: Executor,
  id: string,
  changes: Updateable<CardTransactionsTable>,
): Promise<void> {
  await updateById(exec, 'card_transactions', id, changes);
}

export function listTransactions(
  exec: Executor,
  filter: {
    organizationId: string;
    livemode: number;
    cardId?: string | undefined;
    userId?: string | undefined;
    /** Only transactions of cards this client's token created. */
    clientId?: string | undefined;
    startingAfter?: { created_at: number; id: string } | undefined;
    limit: number;
  },
) {
  let query = exec
    .selectFrom('card_transactions')
    .selectAll()
    .where('organization_id', '=', filter.organizationId)
    .where('livemode', '=', filter.livemode);
  if (filter.cardId !== undefined) query = query.where('card_id', '=', filter.cardId);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.clientId !== undefined) {
    const clientId = filter.clientId;
    query = query.where('card_id', 'in', (eb) =>
      eb
        .selectFrom('cards')
        .select('cards.id')
        .where('cards.organization_id', '=', filter.organizationId)
        .where('cards.livemode', '=', filter.livemode)
        .where('cards.client_id', '=', clientId),
    );
  }
  if (filter.startingAfter) query = query.where(olderThan(filter.startingAfter));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

// ---- spending controls

/**
 * A user's spending controls. `lock` (an authorization deciding on them): on PostgreSQL the row is
 * locked, after the card's and before any ledger row (docs/ledger.md, lock order), so two charges
 * on cards of one user pass the user's limits one after the other.
 */
export async function userControls(exec: Executor, userId: string, lock: boolean) {
  const locking = lock && dialectOf(exec) === 'postgres';
  const key = locking ? 'lock user controls' : 'user controls';
  const [row] = await runCompiled(exec, key, [userId], () => {
    const query = exec.selectFrom('user_spending_controls').selectAll().where('user_id', '=', userId);
    return locking ? query.forUpdate() : query;
  });
  return row;
}

export async function saveUserControls(
  exec: Executor,
  row: Insertable<UserSpendingControlsTable>,
): Promise<void> {
  await exec
    .insertInto('user_spending_controls')
    .values(row)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ controls: row.controls, updated_at: row.updated_at }),
    )
    .execute();
}

/**
 * What the purchases of a card, or of all a user's cards, spent from `since` (ms) on: approved
 * authorizations at what they still hold (less what partial voids released), and settled ones less
 * what their refunds gave back (a void gave all back). `categories` counts only purchases whose
 * code falls in them.
 */
export async function spentSince(
  exec: Executor,
  owner: { organizationId: string; livemode: number } & ({ cardId: string } | { userId: string }),
  since: number,
  categories: CodeRanges | null,
): Promise<number> {
  let query = exec
    .selectFrom('card_transactions')
    .select(
      sql<
        number | string
      >`coalesce(sum(case when status = 'PENDING' then amount_cents - voided_cents else settled_cents - refunded_cents end), 0)`.as(
        'spent',
      ),
    )
    .where('type', '=', 'purchase')
    .where('status', 'in', ['PENDING', 'SETTLED'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', owner.livemode)
    .where('created_at', '>=', since);
  query =
    'cardId' in owner ? query.where('card_id', '=', owner.cardId) : query.where('user_id', '=', owner.userId);
  if (categories) {
    query = query.where((eb) =>
      eb.or(categories.map(([from, to]) => eb.and([eb('mcc', '>=', from), eb('mcc', '<=', to)]))),
    );
  }
  const row = await query.executeTakeFirst();
  return Number(row?.spent ?? 0);
}

// ---- reveals and organization settings

export async function insertReveal(exec: Executor, row: Insertable<CardDetailRevealsTable>): Promise<void> {
  await exec.insertInto('card_detail_reveals').values(row).execute();
}

// ---- the platforms' authorization endpoints

/** The organization's endpoint in this mode. Read by every authorization the engine approves: compiled once. */
export async function authorizationEndpoint(exec: Executor, organizationId: string, livemode: number) {
  const [found] = await runCompiled(exec, 'authorization endpoint', [organizationId, livemode], () =>
    exec
      .selectFrom('authorization_endpoints')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode),
  );
  return found;
}

/** One per organization and mode (a unique index): a concurrent first insert fails rather than doubling. */
export async function insertAuthorizationEndpoint(
  exec: Executor,
  row: Insertable<AuthorizationEndpointsTable>,
): Promise<void> {
  await exec.insertInto('authorization_endpoints').values(row).execute();
}

export async function updateAuthorizationEndpoint(
  exec: Executor,
  id: string,
  changes: Updateable<AuthorizationEndpointsTable>,
): Promise<void> {
  await exec.updateTable('authorization_endpoints').set(changes).where('id', '=', id).execute();
}

export async function deleteAuthorizationEndpoint(exec: Executor, id: string): Promise<void> {
  await exec.deleteFrom('authorization_endpoints').where('id', '=', id).execute();
}

// ---- the issuer's reconciliations

/** The issuer's one row: the newest check replaces the one before. */
export async function saveReconciliation(
  exec: Executor,
  row: Insertable<IssuerReconciliationsTable>,
): Promise<void> {
  const { issuer, ...check } = row;
  await exec
    .insertInto('issuer_reconciliations')
    .values(row)
    .onConflict((oc) => oc.column('issuer').doUpdateSet(check))
    .execute();
}

export function reconciliation(exec: Executor, issuer: string) {
  return exec
    .selectFrom('issuer_reconciliations')
    .selectAll()
    .where('issuer', '=', issuer)
    .executeTakeFirst();
}

/** The ids of a user's cards and cardholders (what their events name), newest cards first. */
export async function idsOfUser(db: Executor, owner: Tenant, userId: string, limit: number) {
  const cards = await db
    .selectFrom('cards')
    .select(['id', 'cardholder_id'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  const cardholders = await db
    .selectFrom('cardholders')
    .select('id')
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .where('user_id', '=', userId)
    .execute();
  return [...new Set([...cards.map((c) => c.id), ...cardholders.map((c) => c.id)])];
}

/** The users' cards, newest first: last4 and status. */
export function cardsOfUsers(db: Executor, owner: Tenant, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('cards')
    .select(['id', 'user_id', 'last4', 'status'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .where('user_id', 'in', userIds)
    .orderBy('created_at', 'desc')
    .execute();
}

/**
 * Whose these cards are: each card's user and, for a company-funded card, its transfer (absent cards
 * left out), read in batches (funding's ownership check reads every card account's).
 */
export async function cardOwners(
  db: Executor,
  cardIds: string[],
): Promise<Map<string, { user_id: string; transfer_id: string | null }>> {
  const owners = new Map<string, { user_id: string; transfer_id: string | null }>();
  for (let i = 0; i < cardIds.length; i += 500) {
    const rows = await db
      .selectFrom('cards')
      .select(['id', 'user_id', 'transfer_id'])
      .where('id', 'in', cardIds.slice(i, i + 500))
      .execute();
    for (const row of rows) owners.set(row.id, { user_id: row.user_id, transfer_id: row.transfer_id });
  }
  return owners;
}

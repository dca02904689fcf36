import type { AppContext } from '../context.ts';
import { DAY, HOUR, MINUTE, SECOND } from '../core/clock.ts';
import { pruneIdempotencyKeys } from '../core/idempotency.ts';
import { DatabaseRateLimiter } from '../core/rate-limit.ts';
import { maintainTables } from '../db/maintenance.ts';
import type { WorkerLog } from './worker.ts';

/** A periodic chore of the worker (see `workerChores`). */
export interface Chore {
  /** Its label in /metrics and in the log. */
  name: string;
  intervalMs: number;
  enabled?: boolean;
  /** Run beside the loop, which claims meanwhile: a chore that can take seconds (one at a time). */
  background?: boolean;
  run(now: number): Promise<void>;
}

/** Retention: expired events, delivery logs, access tokens and idempotency keys. */
const RETENTION_INTERVAL_MS = HOUR;
/** Owed hand-overs of live identity verifications to the reviewer (KycService.retryReviewSubmissions). */
const REVIEW_RETRY_INTERVAL_MS = MINUTE;
/** Sealed national ids past their moment and stale document keys (KycService.sweepPersonalData). */
const KYC_DATA_SWEEP_INTERVAL_MS = 15 * MINUTE;
/** Expiring holds: card authorizations never cleared, and ledger holds past their expiry. */
const HOLD_EXPIRY_INTERVAL_MS = MINUTE;
/** Messaging-provider tokens near their expiry (MessagingService.refreshDue). */
const MESSAGING_REFRESH_INTERVAL_MS = MINUTE;
/** How often orders whose confirm died or whose merchant did not answer are looked at. */
const ORDER_RESOLVE_INTERVAL_MS = 5 * SECOND;
/** How often checkout authorizations past their time are expired (and stale WebAuthn challenges forgotten). */
const APPROVAL_EXPIRY_INTERVAL_MS = 15 * SECOND;
/** How often tables are looked at on a PostgreSQL server whose autovacuum is off (autovacuum's own naptime). */
const MAINTENANCE_INTERVAL_MS = MINUTE;
/**
 * The issuer's transactions the worker compares with the books: those created in this window. Lithic
 * clears within 30 days; late presentments and corrections can come later still.
 */
const ISSUER_RECONCILE_WINDOW_MS = 45 * DAY;

/**
 * The worker's periodic chores, in the order a pass runs them: each at most once per its interval,
 * and a failed one waits for its next turn. `purser_worker_chore_lag_seconds` reports how late each is.
 */
export function workerChores(ctx: AppContext, log: WorkerLog): Chore[] {
  const evm = ctx.funding.chain.name === 'evm';
  let maintenanceWarned = false;
  const chores: Chore[] = [
    {
      // Company-funded card flows: each due step, exactly once (funding/flow.ts).
      name: 'card_flows',
      intervalMs: ctx.config.funding.pollIntervalMs,
      run: async () => {
        const steps = await ctx.funding.advanceFlows(log);
        if (steps > 0) log.info({ steps }, 'card flow steps taken');
        const returns = await ctx.funding.advanceReturns(log);
        if (returns > 0) log.info({ steps: returns }, 'chain return steps taken');
      },
    },
    {
      // Stablecoin deposits on the chain: each credited once, the block cursor persisted.
      name: 'chain_deposits',
      enabled: evm,
      intervalMs: ctx.config.funding.pollIntervalMs,
      run: async () => {
        const deposits = await ctx.funding.onChain.watchDeposits();
        if (deposits > 0) log.info({ deposits }, 'chain deposits credited');
      },
    },
    {
      name: 'chain_reconcile',
      enabled: evm,
      intervalMs: ctx.config.funding.reconcileIntervalMs,
      run: () => reconcileChain(ctx, log),
    },
    {
      name: 'issuer_reconcile',
      enabled: ctx.config.cards.lithic !== null,
      intervalMs: ctx.config.cards.lithic?.reconcileIntervalMs ?? DAY,
      run: (now) => reconcileIssuer(ctx, log, now),
    },
    {
      // Expired events, delivery logs, access tokens and idempotency keys.
      name: 'retention',
      intervalMs: RETENTION_INTERVAL_MS,
      run: async (now) => {
        const pruned = await ctx.events.pruneExpired();
        const tokens = await ctx.auth.sweepExpired();
        await ctx.connect.sweepRotatedSuccessors();
        // Authorization codes past their 60 seconds (and the minute their replay is recognised in).
        await ctx.oauth.sweepExpiredCodes();
        // Rate-limit logs of every limiter kept in the database whose window has passed.
        if (ctx.tokenRateLimiter instanceof DatabaseRateLimiter) await ctx.tokenRateLimiter.sweep();
        const keys = await pruneIdempotencyKeys(ctx.db, now);
        if (pruned > 0 || tokens > 0 || keys > 0)
          log.info({ events: pruned, access_tokens: tokens, idempotency_keys: keys }, 'retention sweep');
      },
    },
    {
      name: 'identity_reviews',
      intervalMs: REVIEW_RETRY_INTERVAL_MS,
      run: async () => {
        const { submitted, failed } = await ctx.kyc.retryReviewSubmissions(REVIEW_RETRY_INTERVAL_MS);
        if (submitted > 0 || failed > 0)
          log[failed > 0 ? 'error' : 'info']({ submitted, failed }, 'identity review hand-overs retried');
      },
    },
    {
      name: 'identity_data',
      intervalMs: KYC_DATA_SWEEP_INTERVAL_MS,
      run: async () => {
        const { nationalIdsErased, documentKeysRekeyed } = await ctx.kyc.sweepPersonalData();
        if (nationalIdsErased > 0 || documentKeysRekeyed > 0)
          log.info(
            { national_ids_erased: nationalIdsErased, document_keys_rekeyed: documentKeysRekeyed },
            'identity data sweep',
          );
      },
    },
    {
      name: 'orders',
      intervalMs: ORDER_RESOLVE_INTERVAL_MS,
      run: async () => {
        const ended = await ctx.purchases.checkout.resolveDue();
        if (ended > 0) log.info({ orders: ended }, 'unsettled orders resolved');
      },
    },
    {
      name: 'messaging_tokens',
      intervalMs: MESSAGING_REFRESH_INTERVAL_MS,
      run: async () => {
        const { refreshed, failed, broken } = await ctx.messaging.refreshDue();
        if (refreshed > 0 || failed > 0 || broken > 0)
          log[failed > 0 || broken > 0 ? 'error' : 'info'](
            { refreshed, failed, broken },
            'messaging provider tokens refreshed',
          );
      },
    },
    {
      name: 'checkout_approvals',
      intervalMs: APPROVAL_EXPIRY_INTERVAL_MS,
      run: async () => {
        const expired = await ctx.purchases.approvals.expireDue();
        const mandates = await ctx.mandates.expireDue();
        if (mandates > 0) log.info({ mandates }, 'mandates expired');
        await ctx.purchases.approvals.placeApprovedDue(ctx.config.purchases.confirmGraceMs);
        await ctx.vault.passkeys.sweepChallenges();
        if (expired > 0) log.info({ authorizations: expired }, 'checkout authorizations expired');
      },
    },
    {
      // Card authorizations never cleared, and ledger holds past their expiry.
      name: 'hold_expiry',
      intervalMs: HOLD_EXPIRY_INTERVAL_MS,
      run: async () => {
        const authorizations = await ctx.cards.network.expireAuthorizations();
        const holds = await ctx.ledger.expireDue();
        if (authorizations > 0 || holds > 0) log.info({ authorizations, holds }, 'expired holds voided');
        // Changes appended to accounts (mirror accounts, the pool's credits: PostgreSQL) into their
        // totals, so that reading one stays cheap.
        for (let round = 0; round < 10 && (await ctx.ledger.foldDeltas()) > 0; round++);
      },
    },
    {
      // Vacuum and statistics, where the server's autovacuum does not do them (db/maintenance.ts).
      name: 'table_maintenance',
      enabled: ctx.dialect === 'postgres',
      intervalMs: MAINTENANCE_INTERVAL_MS,
      background: true,
      run: async () => {
        const { vacuumed, analyzed } = await maintainTables(ctx.db);
        if (analyzed.length === 0) return;
        // A warning the first time (the operator's signal that autovacuum is off); after it, info.
        const say = maintenanceWarned ? log.info : (log.warn ?? log.info);
        maintenanceWarned = true;
        say.call(
          log,
          { vacuumed, analyzed },
          "PostgreSQL's autovacuum is off: the worker did what it would have (docs/operations.md)",
        );
      },
    },
  ];
  return chores.filter((chore) => chore.enabled !== false);
}

/**
 * The chain against the books (CHAIN=evm, `purser chain reconcile`): each address's drift recorded
 * for /metrics, and one warning line per drift that appears or changes (one info line when it ends).
 */
async function reconcileChain(ctx: AppContext, log: WorkerLog): Promise<void> {
  const check = await ctx.funding.onChain.reconcileChain();
  if (!check) return;
  const { drifted, resolved } = await ctx.funding.onChain.recordChainCheck(check);
  const warn = (log.warn ?? log.error).bind(log);
  for (const drift of drifted) {
    const { address, kind, organization_id, owner_id, chain, ledger, drift: difference } = drift;
    warn(
      { address, kind, organization_id, owner_id, chain, ledger, drift: difference, block: check.block },
      'chain drift: the chain and the books disagree',
    );
  }
  for (const { address, organization_id } of resolved)
    log.info({ address, organization_id, block: check.block }, 'chain drift resolved');
}

/**
 * The issuer against the books (CARD_ISSUER=lithic, `purser issuer reconcile`) over the last
 * `ISSUER_RECONCILE_WINDOW_MS`: what it found recorded for /metrics, and one warning line per drift.
 */
async function reconcileIssuer(ctx: AppContext, log: WorkerLog, now: number): Promise<void> {
  const reconciler = ctx.cards.reconciler;
  const check = await reconciler.reconcile(now - ISSUER_RECONCILE_WINDOW_MS);
  await reconciler.record(check);
  const warn = (log.warn ?? log.error).bind(log);
  for (const { transaction_id, kind, organization_id, card_id, issuer, books, detail } of check.drifts) {
    warn(
      { transaction_id, kind, organization_id, card_id, issuer, books, detail },
      'issuer drift: the issuer and the books disagree',
    );
  }
  log.info(
    { issuer: check.issuer, transactions: check.transactions, drifts: check.drifts.length },
    'issuer reconciled',
  );
}

import type { OutboundConfig } from '../../core/http/policy.ts';
import type { AesGcmSealer, Sealer } from '../../core/sealer.ts';
import type { Tenant } from '../../core/tenant.ts';
import type { Executor } from '../../db/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { OrgService } from '../orgs/index.ts';
import type { MandateTermName } from './controls.ts';
import type { EventEmitter } from './events.ts';
import type { Card } from './service.ts';

/** What the cards domain is built with (context.ts), shared by the service and its use cases. */
export interface CardDeps {
  ledger: LedgerService;
  events: EventEmitter;
  sealer: Sealer & Pick<AesGcmSealer, 'derivedKeys'>;
  users: CardUsers;
  /** Where the platform's authorization endpoint may be (core/outbound.ts). */
  outbound: OutboundConfig;
  /** The organization's card settings are its own columns (orgs). */
  orgs: Pick<OrgService, 'cardSettings' | 'setCardSettings'>;
}

/**
 * The company pool as cards see it (the funding domain implements it): where a company-funded card's
 * money goes back to, and where more of it comes from. Both write in the caller's transaction.
 */
export interface CompanyPool {
  /**
   * `FundingService.lockPool`: locks the organization's company wallet row, which every draw from the
   * pool locks before the ledger's accounts, and returns the pool's account id (to lock with them).
   */
  lockPool(trx: Executor, scope: Tenant): Promise<string>;
  /** `FundingService.releaseToPool`: the one place company money returns to the pool. */
  releaseToPool(trx: Executor, card: Card, move: { transferId: string; amountCents: number }): Promise<void>;
  /** `FundingService.drawFromPool`: company money onto its card (a charge over a closed card's hold). */
  drawFromPool(trx: Executor, card: Card, move: { transferId: string; amountCents: number }): Promise<void>;
}

/** A charge under a spending mandate, as the mandates see it (mandates/terms.ts `MandateCharge`). */
export interface MandatedCharge {
  mandateId: string;
  amountCents: number;
  /** Of an incremental authorization: what it held before (the per-purchase limit judges the total). */
  priorCents?: number | undefined;
  currency: string;
  category: string | null;
  merchant: string | null;
  at: number;
}

export type MandateVerdict = { ok: true } | { ok: false; term: MandateTermName; reply: string };

/**
 * Spending mandates as cards see them (the mandates domain implements it, docs/mandates.md): a card
 * created under a mandate is held to its terms by the authorization engine, its charges take from
 * the mandate's budget, and every later move of a charge brings what it takes in step with the
 * card's books, each in the card's own transaction.
 */
export interface CardMandates {
  /** The newest active mandate of a user for an app: the one a card the app creates is held to. */
  current(scope: Tenant, userId: string, clientId: string): Promise<string | null>;
  /** Locks the mandate's row: after the card's, before the user's spending controls (docs/ledger.md). */
  lock(trx: Executor, mandateId: string): Promise<void>;
  /** Whether the charge passes the mandate's terms now (its row locked by `lock`); writes nothing. */
  check(exec: Executor, charge: MandatedCharge): Promise<MandateVerdict>;
  /** Takes the charge from the budget; `reference` is the card transaction's id. */
  consume(trx: Executor, charge: MandatedCharge & { reference: string }): Promise<MandateVerdict>;
  /** Sets what a charge takes of the budget to what it holds and settled less what was refunded. */
  follow(
    trx: Executor,
    charge: {
      mandateId: string;
      reference: string;
      takesCents: number;
      merchant: string | null;
      category: string | null;
      at: number;
    },
  ): Promise<number>;
}

/** What cards need to know of a user: that they exist here, and what their verification says. */
export interface CardUsers {
  findUser(
    organizationId: string,
    livemode: boolean,
    userId: string,
  ): Promise<{ id: string; email: string | null; phone: string | null } | undefined>;
  approvedIdentity(
    organizationId: string,
    livemode: boolean,
    userId: string,
  ): Promise<{ first_name?: string; last_name?: string; date_of_birth?: string } | null>;
}

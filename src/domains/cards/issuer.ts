import { Refusal } from '../../core/refusal.ts';
import type { CardRefusalCode } from './index.ts';
import { sandboxCardNumber } from './numbers.ts';
import type { IssuerReport } from './settlement.ts';

/** A card as its issuer made it. `providerRef` is null for the built-in network's cards. */
export interface IssuedCard {
  providerRef: string | null;
  pan: string;
  cvv: string;
  /** `MM/YY`. */
  expiry: string;
  last4: string;
}

/** One of the issuer's transactions as its list gives it: `report` null when it cannot be read. */
export interface IssuerTransaction {
  token: string;
  cardRef: string;
  /** When the issuer last changed it (ms). */
  updatedAt: number;
  report: IssuerReport | null;
}

export interface NewCard {
  /** Our card id: the issuer's idempotency key, so a retried create makes one card. */
  id: string;
  type: 'single_use' | 'multi_use';
  spendLimitCents: number;
  memo: string | null;
}

/**
 * Who makes the card and mirrors its lifecycle. Every charge is still decided by our engine
 * (network.ts); an issuer's own state is a second fence, kept in step with ours. Every call that
 * changes something carries an idempotency key, so the SDK's and our retries act once.
 */
export interface CardIssuer {
  readonly name: 'sandbox' | 'lithic';
  create(card: NewCard): Promise<IssuedCard>;
  pause(providerRef: string, idempotencyKey: string): Promise<void>;
  resume(providerRef: string, idempotencyKey: string): Promise<void>;
  close(providerRef: string, idempotencyKey: string): Promise<void>;
  setSpendLimit(providerRef: string, spendLimitCents: number, idempotencyKey: string): Promise<void>;
  /**
   * Every transaction the issuer holds created from `since` on (all when null), paged through;
   * throws `IssuerUnreadable` when the issuer cannot be read. The built-in network has none.
   */
  transactions(since: number | null): AsyncIterable<IssuerTransaction>;
}

/** The built-in network: numbers in the test range, nothing upstream to mirror. */
export class SandboxIssuer implements CardIssuer {
  readonly name = 'sandbox' as const;
  constructor(private readonly now: () => number) {}

  async create(): Promise<IssuedCard> {
    const number = sandboxCardNumber(this.now());
    return { providerRef: null, ...number, last4: number.pan.slice(-4) };
  }
  async pause(): Promise<void> {}
  async resume(): Promise<void> {}
  async close(): Promise<void> {}
  async setSpendLimit(): Promise<void> {}
  async *transactions(): AsyncIterable<IssuerTransaction> {}
}

/** The issuer's transactions could not be listed (`issuer reconcile`); the message names no secret. */
export class IssuerUnreadable extends Error {}

/** The issuer refused or could not be reached; nothing changed on our side. */
export const issuerError = () =>
  new Refusal<CardRefusalCode>(
    'issuer_error',
    'The card issuer did not accept the request; nothing changed. Retry later.',
  );

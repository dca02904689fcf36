import { ApiError } from '../../core/errors.ts';
import { sandboxCardNumber } from './numbers.ts';

/** A card as its issuer made it. `providerRef` is null for the built-in network's cards. */
export interface IssuedCard {
  providerRef: string | null;
  pan: string;
  cvv: string;
  /** `MM/YY`. */
  expiry: string;
  last4: string;
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
}

/** The issuer refused or could not be reached; nothing changed on our side. */
export const issuerError = () =>
  new ApiError(
    502,
    'issuer_error',
    'The card issuer did not accept the request; nothing changed. Retry later.',
  );

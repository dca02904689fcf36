import type { Executor } from '../../db/index.ts';

/** A charge a mandate's terms judge (mandates/terms.ts `MandateCharge`). */
export interface MandateCharge {
  mandateId: string;
  amountCents: number;
  currency: string;
  category: string | null;
  merchant: string | null;
  at: number;
}

/** What a receipt of an order placed under a mandate states (receipts/service.ts `ReceiptClaims`). */
export interface OrderReceiptClaims {
  mandate_id: string;
  terms_hash: string;
  cart_hash: string;
  order_id: string;
  amount_cents: number;
  currency: string;
  merchant: string;
  placed_at: string;
}

/**
 * Spending mandates and receipts as purchases see them (context.ts wires the two domains): a
 * confirm made with a token of the mandate's app, for a cart within its terms, is placed without a
 * per-purchase approval (docs/mandates.md "Purchases"), and its order gets a signed receipt.
 */
export interface PurchaseMandates {
  /** The user's active mandates for the app, newest first. */
  activeFor(scope: {
    organizationId: string;
    livemode: boolean;
    userId: string;
    clientId: string;
  }): Promise<{ id: string }[]>;
  /** Whether the charge is within the mandate's terms now (no lock, no write); else the term and a reply. */
  check(charge: MandateCharge): Promise<{ ok: true } | { ok: false; term: string; reply: string }>;
  /** The organization's choice for a cart outside its mandates: decline, or the user's approval. */
  overflow(organizationId: string): Promise<'decline' | 'approval'>;
  /** The mandate's `terms_hash`. */
  termsHash(mandateId: string): Promise<string>;
  /** Signs and keeps an order's receipt in the transaction placing it; the compact JWS. */
  receipt(
    trx: Executor,
    order: { organizationId: string; livemode: boolean },
    claims: OrderReceiptClaims,
  ): Promise<string>;
}

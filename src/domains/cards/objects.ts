import type { Selectable } from 'kysely';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { isoTime } from '../../core/clock.ts';
import type { CardsTable, CardTransactionsTable } from '../../db/schema.ts';
import {
  EMPTY_CONTROLS,
  type MandateRefusal,
  parseControls,
  type SpendingControlRefusal,
} from './controls.ts';

/** What the API and the events say about cards, transactions and cardholders (spec §2, §6). */

type Card = Selectable<CardsTable>;
type CardTransaction = Selectable<CardTransactionsTable>;

export interface CardholderDetails {
  /** Null when no one has said it (a cardholder made from a verification that established no names). */
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  date_of_birth: string | null;
  phone_number: string | null;
}

export const CARDHOLDER_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'date_of_birth',
  'phone_number',
] as const;

export function cardObject(card: Card, balanceCents: number) {
  return {
    object: 'card' as const,
    id: card.id,
    user_id: card.user_id,
    cardholder_id: card.cardholder_id,
    type: card.type,
    last4: card.last4,
    expiry: card.expiry,
    status: card.status,
    spend_limit_cents: card.spend_limit_cents,
    balance_cents: balanceCents,
    created_at: isoTime(card.created_at),
    closed_reason: card.closed_reason,
    spending_controls: parseControls(card.spending_controls) ?? EMPTY_CONTROLS,
  };
}

export function transactionObject(txn: CardTransaction, card: Pick<Card, 'last4'>) {
  return {
    object: 'transaction' as const,
    id: txn.id,
    type: txn.type,
    card_id: txn.card_id,
    user_id: txn.user_id,
    last4: card.last4,
    status: txn.status,
    amount_cents: amountOf(txn),
    authorized_cents: txn.amount_cents,
    voided_cents: txn.voided_cents,
    refunded_cents: txn.refunded_cents,
    original_transaction_id: txn.original_transaction_id,
    force_posted: txn.force_posted === 1,
    merchant: txn.merchant,
    mcc: txn.mcc,
    merchant_country: txn.merchant_country,
    decline_reason: txn.decline_reason,
    spending_control: controlOf(txn),
    authorization_decided_by: txn.authorization_decided_by,
    platform_reason: txn.platform_reason,
    created_at: isoTime(txn.created_at),
    updated_at: isoTime(txn.updated_at),
  };
}

/** The spending control that declined the transaction, if one did. */
function controlOf(txn: CardTransaction): SpendingControlRefusal | MandateRefusal | null {
  return txn.spending_control === null
    ? null
    : (JSON.parse(txn.spending_control) as SpendingControlRefusal | MandateRefusal);
}

/**
 * While PENDING, what is still authorized (less what partial voids released); then the settled
 * amount once anything settled (a refund: what it gave back), else the authorized one.
 */
function amountOf(txn: CardTransaction): number {
  if (txn.status === 'PENDING') return txn.amount_cents - txn.voided_cents;
  return txn.settled_cents ?? txn.amount_cents;
}

// ---- event data, exactly the spec's fields

export function cardCreatedData(card: Card, balanceCents: number) {
  return {
    id: card.id,
    cardholder_id: card.cardholder_id,
    last4: card.last4,
    expiry: card.expiry,
    spend_limit_cents: card.spend_limit_cents,
    balance_cents: balanceCents,
    status: card.status,
    created_at: isoTime(card.created_at),
    transfer_id: card.transfer_id,
  };
}

export function cardUpdatedData(card: Card, balanceCents: number) {
  return {
    id: card.id,
    cardholder_id: card.cardholder_id,
    last4: card.last4,
    status: card.status,
    balance_cents: balanceCents,
    spend_limit_cents: card.spend_limit_cents,
  };
}

export function cardClosedData(card: Card) {
  return {
    id: card.id,
    cardholder_id: card.cardholder_id,
    last4: card.last4,
    status: card.status,
    reason: card.closed_reason,
  };
}

/** What a void released (`released_cents`) and what the authorization still holds after it (`held_cents`). */
export interface VoidedAmounts {
  released_cents: number;
  held_cents: number;
}

/**
 * A transaction event's data; `transaction.voided` adds what the void released and left held. The
 * members that only some transactions have are added one by one, in this order (every authorization
 * builds one: spreading an empty object for each absent member cost more than the rest).
 */
export function transactionData(
  txn: CardTransaction,
  card: Pick<Card, 'last4'>,
  balanceCents: number,
  voided?: VoidedAmounts,
) {
  const data: {
    id: string;
    card_id: string;
    last4: string;
    amount_cents: number;
    merchant: string;
    mcc: string | null;
    status: CardTransaction['status'];
    balance_cents: number;
    decline_reason?: CardTransaction['decline_reason'];
    spending_control?: SpendingControlRefusal | MandateRefusal | null;
    platform_reason?: string;
    type?: CardTransaction['type'];
    original_transaction_id?: string | null;
    released_cents?: number;
    held_cents?: number;
  } = {
    id: txn.id,
    card_id: txn.card_id,
    last4: card.last4,
    amount_cents: amountOf(txn),
    merchant: txn.merchant,
    mcc: txn.mcc,
    status: txn.status,
    balance_cents: balanceCents,
  };
  if (txn.status === 'DECLINED') data.decline_reason = txn.decline_reason;
  if (txn.spending_control !== null) data.spending_control = controlOf(txn);
  if (txn.platform_reason !== null) data.platform_reason = txn.platform_reason;
  if (txn.type === 'refund') {
    data.type = txn.type;
    data.original_transaction_id = txn.original_transaction_id;
  }
  if (voided) {
    data.released_cents = voided.released_cents;
    data.held_cents = voided.held_cents;
  }
  return data;
}

/**
 * The checks a cardholder's details need beyond their JSON schema: a real past birth date and a
 * valid E.164 phone number. The field errors, or null when none.
 */
export function checkCardholderDetails(
  details: {
    date_of_birth?: string | undefined;
    phone_number?: string | undefined;
    first_name?: string;
    last_name?: string;
    email?: string;
  },
  now: number,
): Record<string, string> | null {
  const errors: Record<string, string> = {};
  for (const name of ['first_name', 'last_name'] as const) {
    const value = details[name];
    if (value !== undefined && (value.length === 0 || value.length > 100))
      errors[name] = 'must be 1 to 100 characters';
  }
  if (details.email !== undefined && !isEmail(details.email)) errors.email = 'must be an email address';
  if (details.date_of_birth !== undefined) {
    const date = new Date(`${details.date_of_birth}T00:00:00Z`);
    const real =
      /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(details.date_of_birth) &&
      !Number.isNaN(date.getTime()) &&
      date.toISOString().startsWith(details.date_of_birth);
    if (!real || date.getTime() > now || date.getUTCFullYear() < 1900) {
      errors.date_of_birth = 'must be a real past date, YYYY-MM-DD';
    }
  }
  if (details.phone_number !== undefined) {
    const phone = details.phone_number;
    // E.164 in form, of a length the country's numbers can have: test numbers (+1 555 …) pass; no
    // message is sent to a cardholder's number, so whether it is assigned is not ours to judge.
    const parsed = /^\+[1-9]\d{1,14}$/.test(phone) ? parsePhoneNumberFromString(phone) : undefined;
    if (!parsed?.isPossible()) errors.phone_number = 'must be a valid E.164 phone number';
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/** An address with one `@`, no spaces and a dot in its domain, at most 320 characters (RFC 5321 §4.5.3). */
export function isEmail(value: string): boolean {
  return value.length <= 320 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

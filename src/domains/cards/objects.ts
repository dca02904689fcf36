import type { Selectable } from 'kysely';
import { isoTime } from '../../core/clock.ts';
import type { CardsTable, CardTransactionsTable } from '../../db/schema.ts';

/** What the API and the events say about cards, transactions and cardholders (spec §2, §6). */

type Card = Selectable<CardsTable>;
type CardTransaction = Selectable<CardTransactionsTable>;

export interface CardholderDetails {
  first_name: string;
  last_name: string;
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
  };
}

export function transactionObject(txn: CardTransaction, card: Pick<Card, 'last4'>) {
  return {
    object: 'transaction' as const,
    id: txn.id,
    card_id: txn.card_id,
    user_id: txn.user_id,
    last4: card.last4,
    status: txn.status,
    amount_cents: txn.settled_cents ?? txn.amount_cents,
    authorized_cents: txn.amount_cents,
    merchant: txn.merchant,
    mcc: txn.mcc,
    decline_reason: txn.decline_reason,
    created_at: isoTime(txn.created_at),
    updated_at: isoTime(txn.updated_at),
  };
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

export function transactionData(txn: CardTransaction, card: Pick<Card, 'last4'>, balanceCents: number) {
  return {
    id: txn.id,
    card_id: txn.card_id,
    last4: card.last4,
    amount_cents: txn.settled_cents ?? txn.amount_cents,
    merchant: txn.merchant,
    mcc: txn.mcc,
    status: txn.status,
    balance_cents: balanceCents,
    ...(txn.status === 'DECLINED' ? { decline_reason: txn.decline_reason } : {}),
  };
}

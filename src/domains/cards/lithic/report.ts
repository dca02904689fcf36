import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { IssuerReport } from '../settlement.ts';

/** An amount of Lithic's `amounts` (the SDK's `Transaction.Amounts.Hold` / `.Settlement`); null when none. */
const Amount = Type.Union([Type.Object({ amount: Type.Integer() }), Type.Null()]);

/**
 * The part of a Lithic transaction (the SDK's `Transaction`, which `card_transaction.updated`
 * extends) that moves money: the whole transaction as it stands, each time. The deprecated
 * `amount` / `settled_amount` stand in only when `amounts` is absent.
 */
const LithicTransactionSchema = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 64 }),
  card_token: Type.String({ minLength: 1, maxLength: 64 }),
  status: Type.Union([
    Type.Literal('PENDING'),
    Type.Literal('SETTLED'),
    Type.Literal('VOIDED'),
    Type.Literal('EXPIRED'),
    Type.Literal('DECLINED'),
  ]),
  amount: Type.Integer(),
  settled_amount: Type.Optional(Type.Integer()),
  amounts: Type.Optional(Type.Object({ hold: Type.Optional(Amount), settlement: Type.Optional(Amount) })),
  updated: Type.String({ minLength: 1, maxLength: 40 }),
  events: Type.Optional(
    Type.Array(
      Type.Object({
        token: Type.String(),
        type: Type.Optional(Type.String()),
        result: Type.Optional(Type.String()),
      }),
    ),
  ),
  merchant: Type.Optional(
    Type.Object({ descriptor: Type.Optional(Type.String()), mcc: Type.Optional(Type.String()) }),
  ),
});

export type LithicTransaction = Static<typeof LithicTransactionSchema>;
export const LithicTransaction = Compile(LithicTransactionSchema);

/** The events that ask for a hold (each decided by Auth Stream Access: the first and each incremental one). */
const AUTHORIZING = new Set(['AUTHORIZATION', 'FINANCIAL_AUTHORIZATION']);

/** Events one transaction can hold before two reports in the same millisecond could tie. */
const EVENTS_PER_MS = 1_000;

/**
 * A Lithic transaction in our terms (settlement.ts `IssuerReport`). Holds follow `amounts.hold`
 * (larger than the charge for fuel and tips), settlement `amounts.settlement` (below zero for a
 * return). The version orders one transaction's reports: when Lithic last updated it, then how many
 * events it holds, so the newest always wins and a repeat or an older report changes nothing.
 */
export function lithicReport(txn: LithicTransaction): IssuerReport | null {
  const updated = Date.parse(txn.updated);
  if (!Number.isFinite(updated)) return null;
  const pending = txn.status === 'PENDING';
  const held = txn.amounts?.hold?.amount ?? (pending ? txn.amount : 0);
  const settled = txn.amounts?.settlement?.amount ?? txn.settled_amount ?? 0;
  return {
    id: txn.token,
    status: txn.status,
    heldCents: held,
    settledCents: settled,
    version: updated * EVENTS_PER_MS + Math.min(txn.events?.length ?? 0, EVENTS_PER_MS - 1),
    authorizations: txn.events?.filter((e) => AUTHORIZING.has(e.type ?? '') && e.result === 'APPROVED')
      .length,
    merchant: txn.merchant?.descriptor?.trim() || 'Unknown merchant',
    mcc: txn.merchant?.mcc ?? null,
  };
}

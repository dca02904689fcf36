import type { Insertable } from 'kysely';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Executor } from '../../db/index.ts';
import type { OrderReceiptsTable, ReceiptKeysTable } from '../../db/schema.ts';

/** The key that signs (one at a time); retired keys have no slot. */
export const CURRENT = 'current';

export async function insertReceipt(db: Executor, row: Insertable<OrderReceiptsTable>): Promise<void> {
  await db.insertInto('order_receipts').values(row).execute();
}

/** An order's receipt in the organization and mode, with its key's expiry (`published` null: key gone). */
export function findReceipt(db: Executor, scope: Tenant, orderId: string) {
  return db
    .selectFrom('order_receipts')
    .leftJoin('receipt_keys', 'receipt_keys.kid', 'order_receipts.kid')
    .select([
      'order_receipts.order_id',
      'order_receipts.mandate_id',
      'order_receipts.kid',
      'jws',
      'receipt_keys.kid as published',
      'expires_at',
    ])
    .where('order_id', '=', orderId)
    .where('organization_id', '=', scope.organizationId)
    .where('livemode', '=', livemodeColumn(scope.livemode))
    .executeTakeFirst();
}

export async function replaceSignature(
  db: Executor,
  orderId: string,
  signed: { kid: string; jws: string },
): Promise<void> {
  await db
    .updateTable('order_receipts')
    .set({ kid: signed.kid, jws: signed.jws })
    .where('order_id', '=', orderId)
    .execute();
}

/** The mandate each of these orders was placed under, for the orders that have a receipt. */
export async function mandatesOfOrders(db: Executor, orderIds: string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('order_receipts')
    .select(['order_id', 'mandate_id'])
    .where('order_id', 'in', orderIds)
    .execute();
  return new Map(rows.map((row) => [row.order_id, row.mandate_id]));
}

/** The keys that still verify (not expired at `now`). */
export function publishedKeys(db: Executor, now: number) {
  return db
    .selectFrom('receipt_keys')
    .select(['kid', 'public_jwk', 'retired_at'])
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
}

export function currentKey(db: Executor) {
  return db.selectFrom('receipt_keys').selectAll().where('slot', '=', CURRENT).executeTakeFirst();
}

/** A new current key; when another insert won the slot first, nothing happens. */
export async function insertCurrentKey(
  db: Executor,
  row: Omit<Insertable<ReceiptKeysTable>, 'slot'>,
): Promise<void> {
  await db
    .insertInto('receipt_keys')
    .values({ ...row, slot: CURRENT })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * Retires the current key: its private half erased, expiring at `expiresAt`. Returns the kids it
 * retired.
 */
export async function retireCurrentKey(db: Executor, now: number, expiresAt: number): Promise<string[]> {
  const retiring = await db.selectFrom('receipt_keys').select('kid').where('slot', '=', CURRENT).execute();
  await db
    .updateTable('receipt_keys')
    .set({ slot: null, private_key_sealed: null, retired_at: now, expires_at: expiresAt })
    .where('slot', '=', CURRENT)
    .execute();
  return retiring.map((key) => key.kid);
}

export function keysNamed(db: Executor, kids: string[]) {
  if (kids.length === 0) return Promise.resolve([]);
  return db.selectFrom('receipt_keys').selectAll().where('kid', 'in', kids).execute();
}

/** Every key ever made, newest first. */
export function allKeys(db: Executor) {
  return db.selectFrom('receipt_keys').selectAll().orderBy('created_at', 'desc').execute();
}

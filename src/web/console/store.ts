import type { Tenant } from '../../core/tenant.ts';
import type { Executor } from '../../db/index.ts';
import { cardsOfUsers, idsOfUser } from '../../domains/cards/index.ts';
import { connectionsOfUsers, connectionsWithUsers, usersOf } from '../../domains/connect/index.ts';
import { eventPosition, eventsMentioning } from '../../domains/events/index.ts';
import { companyWalletOpened } from '../../domains/funding/index.ts';
import { latestOfUsers } from '../../domains/kyc/index.ts';
import { accountOwners } from '../../domains/ledger/index.ts';
import { mandatesOf } from '../../domains/mandates/index.ts';
import { clientNames } from '../../domains/orgs/index.ts';
import { ordersOf } from '../../domains/purchases/index.ts';
import { mandatesOfOrders } from '../../domains/receipts/index.ts';

/**
 * What the console's pages show that no domain service answers (the organization's users with their
 * connection and KYC status, events mentioning an object), and whether an account exists before
 * asking a service that would open it on first use (a GET never changes anything). Each table is read
 * by its owning domain's store (docs/architecture.md, "Walls"); this file composes them. Nothing here
 * writes.
 */

export {
  accountOwners as ledgerOwners,
  cardsOfUsers as cardsOf,
  connectionsOfUsers as connectionsOf,
  eventPosition,
  eventsMentioning,
  idsOfUser,
  latestOfUsers as kycOf,
  mandatesOf as mandates,
  usersOf as users,
};

/** Whether the organization's company wallet in this mode was ever opened (and its pool account made). */
export async function hasCompanyWallet(db: Executor, owner: Tenant): Promise<boolean> {
  return (
    (await companyWalletOpened(db, owner)) &&
    (await accountOwners(db, owner, 'company_pool', [owner.organizationId])).size > 0
  );
}

/** The organization's orders in one mode, newest first, or one of them; each with the mandate of its receipt. */
export async function orders(db: Executor, owner: Tenant, limit: number, id?: string) {
  const rows = await ordersOf(db, owner, limit, id);
  const mandates = await mandatesOfOrders(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, mandate_id: mandates.get(row.id) ?? null }));
}

/**
 * The grants of the organization's apps in one mode (one connection per user and app), newest
 * first, each `live` as the connect domain says, with the app's name and the user's email or phone.
 */
export async function grants(db: Executor, owner: Tenant, now: number, limit: number) {
  const rows = await connectionsWithUsers(db, owner, now, limit);
  const names = await clientNames(db, [...new Set(rows.map((row) => row.client_id))]);
  return rows.flatMap((row) => {
    const client_name = names.get(row.client_id);
    return client_name === undefined ? [] : [{ ...row, client_name }];
  });
}

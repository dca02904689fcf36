import type { Executor } from '../../db/index.ts';
import type { MerchantRow } from '../../db/schema.ts';

/** The merchants an operator configured (merchant-config.ts has the rules and the sealing). */

export async function insertMerchant(exec: Executor, row: MerchantRow): Promise<void> {
  await exec.insertInto('merchants').values(row).execute();
}

/** Every configured merchant, by slug. */
export function allMerchants(exec: Executor): Promise<MerchantRow[]> {
  return exec.selectFrom('merchants').selectAll().orderBy('slug').execute();
}

export function merchantBySlug(exec: Executor, slug: string): Promise<MerchantRow | undefined> {
  return exec.selectFrom('merchants').selectAll().where('slug', '=', slug).executeTakeFirst();
}

/** Removes the merchant of this slug; false when there was none. */
export async function deleteMerchant(exec: Executor, slug: string): Promise<boolean> {
  const result = await exec.deleteFrom('merchants').where('slug', '=', slug).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

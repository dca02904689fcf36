import { livemodeColumn } from '../../core/tenant.ts';
import { runCompiled } from '../../db/compiled.ts';
import type { Executor } from '../../db/index.ts';
import type { OrganizationVaultSettingsTable, VaultCardsTable, VaultSessionsTable } from '../../db/schema.ts';
import type { UserScope } from './passkeys.ts';

/**
 * The vault's tables: its sessions, the organizations' vault settings and the users' own cards
 * (passkeys-store.ts keeps the passkeys and their challenges, recovery-store.ts the resets).
 */

// ---- vault sessions

export async function insertSession(exec: Executor, row: VaultSessionsTable): Promise<void> {
  await exec.insertInto('vault_sessions').values(row).execute();
}

/** What took a session's link. */
export async function markSent(exec: Executor, id: string, sentTo: string): Promise<void> {
  await exec.updateTable('vault_sessions').set({ sent_to: sentTo }).where('id', '=', id).execute();
}

export function sessionByTokenDigest(exec: Executor, tokenDigest: string) {
  return exec
    .selectFrom('vault_sessions')
    .selectAll()
    .where('token_digest', '=', tokenDigest)
    .executeTakeFirst();
}

/** A passkey was registered or verified on the session's page: it may add cards. */
export async function markVerified(exec: Executor, id: string, now: number): Promise<void> {
  await exec.updateTable('vault_sessions').set({ verified_at: now }).where('id', '=', id).execute();
}

/** Every session of the user unlocked with a passkey locks again (a passkey reset). */
export async function lockSessionsOf(exec: Executor, user: UserScope): Promise<void> {
  await exec
    .updateTable('vault_sessions')
    .set({ verified_at: null })
    .where('organization_id', '=', user.organizationId)
    .where('livemode', '=', livemodeColumn(user.livemode))
    .where('user_id', '=', user.userId)
    .where('verified_at', 'is not', null)
    .execute();
}

// ---- the organizations' vault settings

/** The organization's settings row; none until an operator set one. */
export async function settingsOf(exec: Executor, organizationId: string) {
  const [settings] = await runCompiled(exec, 'vault settings of organization', [organizationId], () =>
    exec
      .selectFrom('organization_vault_settings')
      .select(['branded_vault', 'approval_threshold_cents', 'mandate_overflow'])
      .where('organization_id', '=', organizationId),
  );
  return settings;
}

/** Sets some of the organization's settings, creating its row (not branded) when it has none. */
export async function updateSettings(
  exec: Executor,
  organizationId: string,
  settings: Partial<
    Pick<OrganizationVaultSettingsTable, 'branded_vault' | 'approval_threshold_cents' | 'mandate_overflow'>
  >,
  now: number,
): Promise<void> {
  await exec
    .insertInto('organization_vault_settings')
    .values({ organization_id: organizationId, branded_vault: 0, ...settings, updated_at: now })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...settings, updated_at: now }))
    .execute();
}

// ---- the users' own cards

export async function insertCard(exec: Executor, row: VaultCardsTable): Promise<void> {
  await exec.insertInto('vault_cards').values(row).execute();
}

/** The user's cards, newest first (never their sealed number). */
export function cardsOf(exec: Executor, user: UserScope) {
  return exec
    .selectFrom('vault_cards')
    .select(['id', 'brand', 'last4', 'exp_month', 'exp_year', 'created_at'])
    .where('organization_id', '=', user.organizationId)
    .where('livemode', '=', livemodeColumn(user.livemode))
    .where('user_id', '=', user.userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A card by its id alone: its brand and last4. */
export function cardById(exec: Executor, id: string) {
  return exec
    .selectFrom('vault_cards')
    .select(['id', 'brand', 'last4'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The organization and mode an object belongs to. Every credential, session and row belongs to one
 * organization in one mode (production or sandbox); a lookup across either answers 404.
 */
export interface Tenant {
  organizationId: string;
  livemode: boolean;
}

/** `livemode` as the tables store it: an integer, 1 in production and 0 in sandbox (SQLite has no boolean). */
export function livemodeColumn(livemode: boolean): 0 | 1 {
  return livemode ? 1 : 0;
}

/** The mode of a stored `livemode` column. */
export function isLivemode(column: number): boolean {
  return column === 1;
}

/** The tenant a stored row belongs to. */
export function tenantOf(row: { organization_id: string; livemode: number }): Tenant {
  return { organizationId: row.organization_id, livemode: isLivemode(row.livemode) };
}

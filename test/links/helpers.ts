import { expect } from 'vitest';
import type { CardsFixture } from '../cards/helpers.ts';
import type { TestApp } from '../helpers/harness.ts';

export interface WalletLinkFixture {
  userId: string;
  /** The link's token (the last segment of `url`). */
  token: string;
  url: string;
  /** `url` without the base URL: `/wallet/wlt_…`. */
  path: string;
  link: Record<string, unknown>;
}

/**
 * A sandbox user of the fixture's organization (approved, with `fund` cents, consent recorded) and a
 * wallet link to their page; wallet links are switched on for the organization first.
 */
export async function walletLink(
  f: CardsFixture,
  options: { fund?: number; expiresIn?: number } = {},
): Promise<WalletLinkFixture> {
  await f.t.ctx.links.setEnabled(f.org.organization_id, true);
  const userId = await f.approvedUser(options.fund ?? 0);
  const consent = await f.t.call('POST', '/api/v2/connect/consent', {
    token: f.sandbox,
    body: { user_id: userId },
  });
  expect(consent.statusCode, consent.body).toBe(201);
  const created = await f.t.call('POST', '/api/v2/wallet_links', {
    token: f.sandbox,
    body: { user_id: userId, ...(options.expiresIn ? { expires_in: options.expiresIn } : {}) },
  });
  expect(created.statusCode, created.body).toBe(201);
  const link = created.json();
  const url = link.url as string;
  const path = new URL(url).pathname;
  return { userId, token: path.split('/').pop() as string, url, path, link };
}

/** Every row of the tables a wallet page could touch, to prove a GET wrote nothing. */
export async function snapshot(t: TestApp): Promise<Record<string, unknown[]>> {
  const tables = [
    'wallet_links',
    'wallet_link_actions',
    'wallet_link_settings',
    'ledger_accounts',
    'ledger_transfers',
    'events',
    'idempotency_keys',
    'kyc_verifications',
    'consents',
    'cards',
    'card_transactions',
    'chain_addresses',
  ] as const;
  const out: Record<string, unknown[]> = {};
  for (const table of tables) out[table] = await t.ctx.db.selectFrom(table).selectAll().execute();
  return out;
}

/** The hidden fields of the form posting to `action` in a rendered page. */
export function formFields(html: string, action: string, decision?: string): Record<string, string> {
  const forms = [...html.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)];
  const form = forms.find(
    (match) => match[1] === action && (decision === undefined || match[2]?.includes(`value="${decision}"`)),
  );
  expect(form, `a form posting to ${action}`).toBeDefined();
  const fields: Record<string, string> = {};
  for (const input of (form?.[2] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[input[1] as string] = (input[2] as string)
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  return fields;
}

export function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

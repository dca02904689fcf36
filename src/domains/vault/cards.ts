import { newId } from '../../core/ids.ts';
import type { Sealer } from '../../core/sealer.ts';
import { livemodeColumn } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import type { VaultCardsTable } from '../../db/schema.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import type { UserScope } from './passkeys.ts';
import { cardsOf, insertCard } from './store.ts';

/** A vault card as anything outside the vault sees it: never the number, expiry digits or CVC. */
export interface VaultCardView {
  id: string;
  brand: string;
  last4: string;
}

export type CardInput = { number: string; expiry: string; cvc: string };
export type CardCheck =
  | { ok: true; pan: string; brand: string; expMonth: number; expYear: number }
  | { ok: false; field: 'number' | 'expiry' | 'cvc'; message: string };

/** ISO/IEC 7812 Luhn check digit. */
export function luhnValid(pan: string): boolean {
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let digit = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The brand from the number's leading digits (the networks' published IIN ranges). */
export function brandOf(pan: string): string {
  if (/^4/.test(pan)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(pan)) return 'mastercard';
  if (/^3[47]/.test(pan)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(pan)) return 'discover';
  return 'card';
}

/**
 * Checks what the user typed: a 12 to 19 digit number passing Luhn (spaces and dashes allowed),
 * an expiry `MM/YY` (or `MM/YYYY`) not in the past at `now`, and a 3 or 4 digit CVC (4 for amex).
 */
export function checkCard(input: CardInput, now: number): CardCheck {
  const pan = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(pan) || !luhnValid(pan))
    return { ok: false, field: 'number', message: 'This card number is not valid.' };
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  const month = expiry ? Number(expiry[1]) : 0;
  const year = expiry ? (expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])) : 0;
  if (!expiry || month < 1 || month > 12)
    return { ok: false, field: 'expiry', message: 'Enter the expiry as MM/YY.' };
  const today = new Date(now);
  // A card is good through the last day of its expiry month.
  if (year < today.getUTCFullYear() || (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1))
    return { ok: false, field: 'expiry', message: 'This card has expired.' };
  const brand = brandOf(pan);
  if (!(brand === 'amex' ? /^\d{4}$/ : /^\d{3}$/).test(input.cvc.trim()))
    return { ok: false, field: 'cvc', message: 'Enter the security code on the card.' };
  return { ok: true, pan, brand, expMonth: month, expYear: year };
}

/**
 * The user's own cards. The number and expiry are sealed with the key ring (AES-256-GCM), bound to
 * the card's id; the CVC is checked and never kept (PCI DSS 3.3.1: no sensitive authentication data
 * after authorization; a card on file is charged without it). Brand and last4 are all that leave.
 */
export class VaultCards {
  constructor(
    private readonly db: Db,
    private readonly sealer: Sealer,
  ) {}

  async add(user: UserScope, card: Extract<CardCheck, { ok: true }>, now: number): Promise<VaultCardView> {
    const id = newId('vc');
    const row: VaultCardsTable = {
      id,
      organization_id: user.organizationId,
      livemode: livemodeColumn(user.livemode),
      user_id: user.userId,
      brand: card.brand,
      last4: card.pan.slice(-4),
      exp_month: card.expMonth,
      exp_year: card.expYear,
      sealed: this.sealer.seal(
        JSON.stringify({ pan: card.pan, exp_month: card.expMonth, exp_year: card.expYear }),
        sealedFor(id),
      ),
      created_at: now,
    };
    await insertCard(this.db, row);
    return { id, brand: row.brand, last4: row.last4 };
  }

  /** The user's cards, newest first. */
  async list(user: UserScope): Promise<(VaultCardView & { exp_month: number; exp_year: number })[]> {
    const rows = await cardsOf(this.db, user);
    return rows.map(({ id, brand, last4, exp_month, exp_year }) => ({
      id,
      brand,
      last4,
      exp_month,
      exp_year,
    }));
  }

  /** The card a vault payment uses: the newest one not expired at `now`. */
  async paying(user: UserScope, now: number): Promise<VaultCardView | null> {
    const today = new Date(now);
    const current = today.getUTCFullYear() * 12 + today.getUTCMonth() + 1;
    const card = (await this.list(user)).find((c) => c.exp_year * 12 + c.exp_month >= current);
    return card ? { id: card.id, brand: card.brand, last4: card.last4 } : null;
  }

  async byId(user: UserScope, id: string): Promise<VaultCardView | null> {
    return (await this.list(user)).find((card) => card.id === id) ?? null;
  }
}

/** Additional data of a sealed card: copied onto another row, it does not open. */
function sealedFor(cardId: string): string {
  return `vault_card:${cardId}`;
}

/** The sealed vault cards (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  { table: 'vault_cards', column: 'sealed', key: ['id'], aad: (row) => sealedFor(String(row.id)) },
];

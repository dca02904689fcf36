import { expect } from 'vitest';
import type { MandateObject } from '../../src/domains/mandates/service.ts';
import type { MandateTermsInput } from '../../src/domains/mandates/terms.ts';
import type { CardsFixture } from '../cards/helpers.ts';

/** Terms for the organization's sandbox client (or production's), ending in 30 days, with `over` on top. */
export function termsFor(
  f: CardsFixture,
  over: Partial<MandateTermsInput> = {},
  mode: 'sandbox' | 'production' = 'sandbox',
): MandateTermsInput {
  return {
    client_id: f.org[mode].client_id,
    description: 'Groceries every week',
    currency: 'usd',
    max_amount_cents: 5_000,
    budget: { amount_cents: 20_000, interval: 'monthly' },
    expires_at: new Date(f.t.clock.now() + 30 * 86_400_000).toISOString(),
    ...over,
  };
}

/** Creates a mandate through the API (in sandbox, or `mode`); its body. */
export async function createMandate(
  f: CardsFixture,
  userId: string,
  over: Partial<MandateTermsInput> = {},
  mode: 'sandbox' | 'production' = 'sandbox',
): Promise<MandateObject> {
  const response = await f.t.call('POST', `/api/v2/users/${userId}/mandates`, {
    token: f[mode],
    body: termsFor(f, over, mode),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/**
 * Marks a mandate approved as the approval page does once a passkey signed it (the page's own tests
 * drive the passkey): for tests of what an active mandate allows.
 */
export async function activate(f: CardsFixture, mandate: { id: string; terms_hash: string }): Promise<void> {
  const approved = await f.t.ctx.ledger.transaction((trx) =>
    f.t.ctx.mandates.approve(trx, mandate.id, mandate.terms_hash, {
      credential_id: 'test',
      response: {},
      challenge: 'test',
    }),
  );
  expect(approved).toBe(true);
}

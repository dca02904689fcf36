import { describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/index.ts';
import type { StoredCart } from '../../src/domains/purchases/cart.ts';
import { confirmRefusal } from '../../src/domains/purchases/confirm.ts';
import type { Merchant } from '../../src/domains/purchases/merchants/merchant.ts';
import { ORDER_TRANSITIONS, orderTransition } from '../../src/domains/purchases/order-states.ts';
import { moveOrder } from '../../src/domains/purchases/store.ts';

describe('the order state table', () => {
  it('takes an order from created to placed, confirmed or failed, and nowhere out of failed', () => {
    expect(orderTransition('created', 'card_issued')?.to).toEqual({ step: 'card_issued', status: 'pending' });
    expect(orderTransition('card_issued', 'placed')?.to).toEqual({ step: 'done', status: 'placed' });
    expect(orderTransition('done', 'merchant_confirmed')).toEqual({
      from: { step: 'done', status: 'placed' },
      to: { step: 'done', status: 'confirmed' },
    });
    expect(orderTransition('created', 'placed')).toBeNull();
    expect(orderTransition('done', 'failed')).toBeNull();
    expect(orderTransition('done', 'card_issued')).toBeNull();
    expect(ORDER_TRANSITIONS.some((t) => t.from.status === 'failed' || t.from.status === 'confirmed')).toBe(
      false,
    );
  });

  it('the store refuses a move the table has no row for, before it writes anything', async () => {
    const untouchable = new Proxy({} as Executor, {
      get() {
        throw new Error('the executor was used');
      },
    });
    await expect(moveOrder(untouchable, 'ord_1', 'done', 'failed', { updated_at: 1 })).rejects.toThrow(
      'An order at step done cannot move by failed.',
    );
    await expect(moveOrder(untouchable, 'ord_1', 'created', 'placed', { updated_at: 1 })).rejects.toThrow(
      'cannot move by placed',
    );
  });
});

describe('the confirm check table', () => {
  const cart = (currency = 'usd') =>
    ({
      merchant: 'retail',
      merchant_name: 'Retail',
      hash: 'h',
      quote: { currency },
    }) as unknown as StoredCart;
  const merchant = (sandbox: boolean) => ({ info: { slug: 'retail', sandbox } }) as unknown as Merchant;

  it('names the first check a confirm fails, in order', () => {
    const base = { livemode: false, source: 'balance', cart: cart(), merchant: merchant(true) };
    expect(confirmRefusal(base)).toBeNull();
    expect(confirmRefusal({ ...base, source: 'company_balance' })?.code).toBe('unsupported_payment_source');
    expect(
      confirmRefusal({ ...base, livemode: true, source: 'vault', merchant: merchant(false) })?.code,
    ).toBe('unsupported_payment_source');
    expect(confirmRefusal({ ...base, merchant: null })?.code).toBe('no_cart');
    expect(confirmRefusal({ ...base, merchant: merchant(false) })?.code).toBe('sandbox_mode');
    expect(confirmRefusal({ ...base, livemode: true })?.bubble).toContain('production money cannot be spent');
    expect(confirmRefusal({ ...base, cart: cart('eur') })).toEqual({
      code: 'unsupported_currency',
      bubble: 'Retail sells in EUR; the wallet holds USD.',
    });
    // An unpayable source is named before an unknown merchant.
    expect(confirmRefusal({ ...base, source: 'stored_payment_method', merchant: null })?.code).toBe(
      'unsupported_payment_source',
    );
  });
});

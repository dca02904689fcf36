import { describe, expect, it } from 'vitest';
import { expectError, useFunding } from './helpers.ts';

/* The company wallet (issue 12): its object, sandbox funding, the low-balance event, modes. */

const f = useFunding();

describe('the company wallet', () => {
  it('starts empty, per mode, with the configured low-balance threshold', async () => {
    expect(await f.pool()).toEqual({
      object: 'company_wallet',
      balance_cents: 0,
      reserved_cents: 0,
      deposit_address: null,
      low_balance_threshold_cents: 1000,
      test_mode: true,
    });
    const live = await f.t.call('GET', '/api/v2/wallet', { token: f.production });
    expect(live.json()).toMatchObject({ balance_cents: 0, test_mode: false });
    expectError(await f.t.call('GET', '/api/v2/wallet'), 401, 'unauthorized');
  });

  it('is funded by simulation in test mode only, firing wallet.funded', async () => {
    const funded = await f.fundPool(25_000);
    expect(funded.statusCode, funded.body).toBe(200);
    expect(funded.json()).toMatchObject({ object: 'company_wallet', balance_cents: 25_000 });
    await f.fundPool(5000);
    const events = (await f.flowEvents()).filter((e) => e.type === 'wallet.funded');
    expect(events.map((e) => e.data)).toEqual([
      { amount_cents: 25_000, balance_cents: 25_000, tx_hash: null },
      { amount_cents: 5000, balance_cents: 30_000, tx_hash: null },
    ]);
    const live = await f.t.call('POST', '/api/v2/simulate/company_funding', {
      token: f.production,
      body: { amount_cents: 100 },
    });
    expectError(live, 403, 'sandbox_only');
    for (const body of [{}, { amount_cents: -1 }]) {
      const refused = await f.t.call('POST', '/api/v2/simulate/company_funding', {
        token: f.production,
        body,
      });
      expectError(refused, 403, 'sandbox_only');
    }
    // Another organization's pool and the production pool are untouched.
    expect((await f.t.call('GET', '/api/v2/wallet', { token: f.production })).json().balance_cents).toBe(0);
    expectError(await f.fundPool(0), 400, 'invalid_request');
  });

  it('funds once for one Idempotency-Key', async () => {
    const key = { 'idempotency-key': 'company-funding-1' };
    expect((await f.fundPool(7000, key)).statusCode).toBe(200);
    const replay = await f.fundPool(7000, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await f.pool()).balance_cents).toBe(7000);
    expect((await f.flowEvents()).filter((e) => e.type === 'wallet.funded')).toHaveLength(1);
  });

  it('fires wallet.balance.low once per crossing under the threshold, not on every debit', async () => {
    const userId = await f.approvedUser();
    await f.fundPool(2000);
    const lows = async () =>
      (await f.flowEvents()).filter((e) => e.type === 'wallet.balance.low').map((e) => e.data);
    expect(await lows()).toEqual([]);
    await f.flow(userId, 1500); // 500 left: under 1000
    expect(await lows()).toEqual([{ balance_cents: 500, threshold_cents: 1000 }]);
    await f.flow(userId, 200); // still under: no second event
    expect(await lows()).toHaveLength(1);
    await f.fundPool(5000); // 5300: recovered
    await f.flow(userId, 4500); // 800: a new crossing
    expect(await lows()).toEqual([
      { balance_cents: 500, threshold_cents: 1000 },
      { balance_cents: 800, threshold_cents: 1000 },
    ]);
  });

  it('takes a new threshold by PATCH, and a threshold above the balance is a crossing', async () => {
    await f.fundPool(5000);
    const patched = await f.t.call('PATCH', '/api/v2/wallet', {
      token: f.sandbox,
      body: { low_balance_threshold_cents: 6000 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ low_balance_threshold_cents: 6000, balance_cents: 5000 });
    await f.t.call('PATCH', '/api/v2/wallet', {
      token: f.sandbox,
      body: { low_balance_threshold_cents: 7000 },
    });
    const lows = (await f.flowEvents()).filter((e) => e.type === 'wallet.balance.low');
    expect(lows.map((e) => e.data)).toEqual([{ balance_cents: 5000, threshold_cents: 6000 }]);
    const bad = await f.t.call('PATCH', '/api/v2/wallet', {
      token: f.sandbox,
      body: { low_balance_threshold_cents: -1 },
    });
    expectError(bad, 400, 'invalid_request');
    // The production wallet keeps its own threshold.
    const live = await f.t.call('GET', '/api/v2/wallet', { token: f.production });
    expect(live.json().low_balance_threshold_cents).toBe(1000);
  });
});

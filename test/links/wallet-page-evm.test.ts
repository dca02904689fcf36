import { describe, expect, it } from 'vitest';
import { useEvm } from '../funding/evm-helpers.ts';
import { snapshot } from './helpers.ts';

/**
 * A production wallet link with the EVM rail (a local anvil): the page shows the user's own deposit
 * address and its QR code, offers no test funds, and opening it still writes nothing.
 */
describe('the hosted wallet page in production on the EVM rail', () => {
  const f = useEvm();

  it('shows the deposit address with a QR code drawn by Purser, and no test funds', async () => {
    await f.t.ctx.links.setEnabled(f.org.organization_id, true);
    await f.t.ctx.orgs.updateOrganization(f.org.organization_id, { subscription: 'active' });
    const userId = await f.liveUser();
    const consent = await f.t.call('POST', '/api/v2/connect/consent', {
      token: f.production,
      body: { user_id: userId },
    });
    expect(consent.statusCode, consent.body).toBe(201);
    const created = await f.t.call('POST', '/api/v2/wallet_links', {
      token: f.production,
      body: { user_id: userId },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().test_mode).toBe(false);
    const path = new URL(created.json().url).pathname;
    const address = await f.userAddress(userId);

    const before = await snapshot(f.t);
    const page = await f.t.request({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<p class="address" id="deposit-address">${address}</p>`);
    expect(page.body).toMatch(
      /<div class="qr"><svg viewBox="[^"]+" xmlns="http:\/\/www\.w3\.org\/2000\/svg">/,
    );
    expect(page.body).not.toContain('TEST MODE');
    expect(page.body).not.toContain('id="add-test-funds"');
    expect(page.body).not.toContain('id="no-deposit-address"');
    expect(await snapshot(f.t)).toEqual(before);

    // No form was rendered; a made-up one is refused.
    const forged = await f.t.request({
      method: 'POST',
      url: `${path}/funds`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `nonce=${'a'.repeat(22)}&csrf=${'b'.repeat(43)}`,
    });
    expect(forged.statusCode).toBe(403);
    expect(await f.liveWallet(userId)).toBe(0);
  });
});

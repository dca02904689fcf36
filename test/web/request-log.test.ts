import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/harness.ts';
import { getState, newUser, startKycApp } from '../kyc/api/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startKycApp();
});
afterAll(() => t.close());

describe('the request log', () => {
  it('never holds a hosted link token, page session or query value', { timeout: 180_000 }, async () => {
    const token = await t.platformToken((await t.createOrg()).sandbox);
    const user = await newUser(t, token);
    // A new user's state already carries the hosted page's link.
    const state = (await getState(t, user)).json();
    const link = new URL(state.iframe_url as string);
    const linkToken = link.pathname.split('/').pop() as string;
    expect(linkToken.length).toBeGreaterThan(20);

    // Open the link (with a query token a future link might carry), then submit the page.
    const opened = await t.request({
      method: 'GET',
      url: `${link.pathname}?token=qtok_secret_value_1&lang=en`,
    });
    expect(opened.statusCode).toBe(200);
    const session = /data-session="([^"]+)"/.exec(opened.body)?.[1] as string;
    const submitted = await t.call('POST', '/kyc/verify/submit', { body: { session, fields: {} } });
    expect(submitted.statusCode).toBeLessThan(500);
    // A link no route matches (a mistyped path) is logged without its long segments.
    await t.request({ method: 'GET', url: `/kyc/verify/${linkToken}/extra?code=123456` });
    // Bearer credentials and query values on the API are not logged either.
    await t.call('GET', `/api/v2/kyc?user_id=${user.userId}`, { token });

    const log = t.logs.text;
    expect(log).toContain('"url":"/kyc/verify/:token?token=[redacted]&lang=[redacted]"');
    expect(log).toContain('"url":"/kyc/verify/submit"');
    for (const secret of [linkToken, 'qtok_secret_value_1', session, token, '123456', user.userId]) {
      expect(log, secret).not.toContain(secret);
    }
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../src/core/clock.ts';
import { type FakeSms, startFakeSms } from '../helpers/fake-sms.ts';
import { connectUser, uniqueEmail } from '../helpers/fixtures.ts';
import { connectProvider, useMessagingApp } from './helpers.ts';

// The default channel is a real (fake) SMS API, so that a test can make it fail too.
let sms: FakeSms;
const env: Record<string, string> = {};
beforeAll(async () => {
  sms = await startFakeSms();
  Object.assign(env, {
    SMS_API_URL: sms.url,
    OUTBOUND_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    SMS_ACCOUNT_SID: 'AC0001',
    SMS_AUTH_TOKEN: 'sms-token',
    SMS_FROM: '+15550000000',
    SANDBOX_REAL_DELIVERY: 'true',
  });
});
afterAll(() => sms.close());

const { f, provider } = useMessagingApp({ env, each: 'organization' });

let phones = 0;
/** A valid number in the 415-555 exchange, new for each test (the file has its own database). */
const uniquePhone = () => `+1415555${String(1000 + ++phones)}`;

beforeEach(() => {
  provider().grantScopes(null);
  provider().failSends(null);
  sms.respondWith(201);
});

/**
 * A connected user (`contact`), then `POST /api/v2/checkout/vault_link` for them (after `beforeSend`);
 * its answer and the SMS the default channel sent for it.
 */
async function vaultLink(contact: { phone?: string; email?: string }, beforeSend: () => void = () => {}) {
  const { userId } = await connectUser(f.t, f.sandbox, contact);
  beforeSend();
  const before = sms.requests.length;
  const response = await f.t.call('POST', '/api/v2/checkout/vault_link', {
    token: f.sandbox,
    body: { user: userId },
  });
  expect(response.statusCode, response.body).toBe(202);
  return {
    answer: response.json() as { sent: boolean; delivery: string | null; url?: string },
    smsSent: sms.requests.slice(before),
  };
}

const linkToken = (text: string) => /\/vault\/(vlt_[A-Za-z0-9]+)/.exec(text)?.[1];

describe('links go out through the organization’s messaging provider, else the default channel', () => {
  it('connected with messages:send: the vault link is sent from the organization’s numbers', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    const phone = uniquePhone();
    const { answer, smsSent } = await vaultLink({ phone });
    expect(answer).toEqual({
      object: 'vault_link',
      sent: true,
      delivery: 'provider',
      user: expect.any(String),
    });
    const message = provider().sent.at(-1)!;
    expect(message.to).toBe(phone);
    expect(linkToken(message.text)).toBeTruthy();
    expect(message.idempotencyKey).toMatch(/^msg_/);
    expect(smsSent).toEqual([]);
    expect(f.t.logs.text).not.toContain(linkToken(message.text));
  });

  it('not connected: the default channel, silently', async () => {
    const phone = uniquePhone();
    const sent = provider().sent.length;
    const { answer, smsSent } = await vaultLink({ phone });
    expect(answer).toMatchObject({ sent: true, delivery: 'sms' });
    expect(answer.url).toBeUndefined();
    expect(provider().sent.length).toBe(sent);
    expect(smsSent.map((r) => r.form.To)).toEqual([phone]);
  });

  it('granted without messages:send: the default channel, and the log says why (without the link)', async () => {
    provider().grantScopes(['contacts:read']);
    const page = await connectProvider(f, f.sandbox);
    expect(page.body).toContain('without the <code>messages:send</code> permission');
    const phone = uniquePhone();
    const sent = provider().sent.length;
    const { answer, smsSent } = await vaultLink({ phone });
    expect(answer.sent).toBe(true);
    expect(provider().sent.length).toBe(sent);
    expect(smsSent).toHaveLength(1);
    const request = smsSent[0]!;
    expect(request.form.To).toBe(phone);
    const logged = f.t.logs.lines.filter((line) => line.includes('lacks the messages:send scope'));
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.parse(logged.at(-1)!)).toMatchObject({
      organization_id: f.org.organization_id,
      fallback: 'sms',
    });
    expect(f.t.logs.text).not.toContain(linkToken(request.form.Body!));
  });

  it('a provider outage (5xx, or a cut connection) falls back to the default channel: the link is not lost', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    for (const failure of [503, 0]) {
      provider().failSends(failure);
      const phone = uniquePhone();
      const { answer, smsSent } = await vaultLink({ phone });
      expect(answer).toMatchObject({ sent: true, delivery: 'sms' });
      expect(smsSent.map((r) => r.form.To)).toEqual([phone]);
    }
    expect(f.t.logs.text).toContain('messaging provider send failed; link sent through the default channel');
  });

  it('when the provider and the default channel both fail, the platform gets the url to deliver', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    provider().failSends(503);
    const { answer } = await vaultLink({ phone: uniquePhone() }, () => sms.respondWith(500));
    expect(answer).toMatchObject({ sent: false, delivery: 'failed' });
    expect(answer.url).toMatch(/^http:\/\/purser\.test\/vault\/vlt_/);
  });

  it('an expired access token (the worker behind) is refreshed before sending', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    f.t.clock.advance(61 * MINUTE);
    await f.renewTokens();
    const phone = uniquePhone();
    expect((await vaultLink({ phone })).answer.sent).toBe(true);
    expect(provider().sent.at(-1)!.to).toBe(phone);
  });

  it('a user with only an email gets it by email, whatever the provider; with no mail server, only the outbox took it: not sent', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    const email = uniqueEmail('vault');
    const sent = provider().sent.length;
    const { answer } = await vaultLink({ email });
    // This app has an SMS service but no mail server: the email reached the local outbox only.
    expect(answer).toMatchObject({ sent: false, delivery: 'outbox' });
    expect(provider().sent.length).toBe(sent);
    const outbox = await f.t.ctx.notifications.sentMessages(1000);
    const message = outbox.find((m) => m.recipient === email && m.body.includes('/vault/'));
    expect(message).toBeDefined();
    expect(answer.url).toBe(`http://purser.test/vault/${linkToken(message!.body)}`);
  });
});

describe('a wallet link asked to be sent (`send: true`) goes the same way, and says what happened', () => {
  /** A connected user with consent, and `POST /api/v2/wallet_links {send: true}` for them. */
  async function walletLink(contact: { phone?: string; email?: string }, beforeSend: () => void = () => {}) {
    await f.t.ctx.links.setEnabled(f.org.organization_id, true);
    const { userId } = await connectUser(f.t, f.sandbox, contact);
    const consent = await f.t.call('POST', '/api/v2/connect/consent', {
      token: f.sandbox,
      body: { user_id: userId },
    });
    expect(consent.statusCode, consent.body).toBe(201);
    beforeSend();
    const before = sms.requests.length;
    const response = await f.t.call('POST', '/api/v2/wallet_links', {
      token: f.sandbox,
      body: { user_id: userId, send: true },
    });
    expect(response.statusCode, response.body).toBe(201);
    return {
      link: response.json() as { url: string; delivery: string | null },
      smsSent: sms.requests.slice(before),
    };
  }

  it('by the provider, else by SMS; when both fail, delivery failed (the url is always in the answer)', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    const phone = uniquePhone();
    const byProvider = await walletLink({ phone });
    expect(byProvider.link.delivery).toBe('provider');
    expect(provider().sent.at(-1)!.text).toContain(byProvider.link.url);
    expect(byProvider.smsSent).toEqual([]);

    provider().failSends(503);
    const bySms = await walletLink({ phone: uniquePhone() });
    expect(bySms.link.delivery).toBe('sms');
    expect(bySms.smsSent[0]!.form.Body).toContain(bySms.link.url);

    const failed = await walletLink({ phone: uniquePhone() }, () => sms.respondWith(500));
    expect(failed.link.delivery).toBe('failed');
    expect(failed.link.url).toMatch(/^http:\/\/purser\.test\/wallet\/wlt_/);
  });

  it('an email with no mail server reaches only the outbox: delivery outbox', async () => {
    const email = uniqueEmail('wallet');
    const { link } = await walletLink({ email });
    expect(link.delivery).toBe('outbox');
    const outbox = await f.t.ctx.notifications.sentMessages(1000);
    expect(outbox.some((m) => m.recipient === email && m.body.includes(link.url))).toBe(true);
  });
});

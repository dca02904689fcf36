import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { type FakeSms, startFakeSms } from '../helpers/fake-sms.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { closedPort, type FakeSmtp, type ReceivedMail, startFakeSmtp } from './fake-smtp.ts';
import {
  expectError,
  outboxCode,
  SANDBOX_CODE,
  start,
  startAttempt,
  uniqueEmail,
  verify,
} from './helpers.ts';

const MAIL_FROM = 'Purser Test <codes@purser.test>';

/** The single six-digit number in a string (the code), or fails. */
function codeIn(text: string): string {
  const codes = [...new Set(text.match(/\b\d{6}\b/g) ?? [])];
  expect(codes, text).toHaveLength(1);
  return codes[0]!;
}

function mailTo(smtp: FakeSmtp, to: string): ReceivedMail {
  const mails = smtp.messages.filter((m) => m.to.includes(to));
  expect(mails, `mail to ${to}`).toHaveLength(1);
  return mails[0]!;
}

/** The id of the newest attempt for this email (a 502 answer carries none). */
async function attemptIdFor(t: TestApp, email: string): Promise<string> {
  const row = await t.ctx.db
    .selectFrom('connect_attempts')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('email over SMTP', () => {
  let smtp: FakeSmtp;
  let t: TestApp;
  let org: CreatedOrganization;
  let production: string;
  let sandbox: string;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({ SMTP_URL: smtp.url, MAIL_FROM });
    org = await t.createOrg('Acme Pay');
    production = await t.platformToken(org.production);
    sandbox = await t.platformToken(org.sandbox);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('sends a production code in the default email, and that code verifies', async () => {
    const email = uniqueEmail();
    const connectId = await startAttempt(t, production, { email });
    const mail = mailTo(smtp, email);
    expect(mail.from).toBe('codes@purser.test');
    expect(mail.headers.from).toContain('codes@purser.test');
    const subject = mail.headers.subject!;
    expect(subject).toContain('Acme Pay');
    const code = codeIn(subject);
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.body).toContain(code);
    expect(mail.body).toContain('10 minutes');
    expect(mail.headers['content-type']).toMatch(/multipart\/alternative/);
    // Sent over SMTP, so nothing went to the outbox.
    expect((await t.ctx.notifications.sentMessages(1000)).some((m) => m.recipient === email)).toBe(false);

    const res = await verify(t, production, { connect_id: connectId, code });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(email);
  });

  it('sends a fresh random code for each production attempt', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const email = uniqueEmail();
      await startAttempt(t, production, { email });
      codes.add(codeIn(mailTo(smtp, email).headers.subject!));
    }
    expect(codes.size).toBeGreaterThan(1);
  });

  it("uses the organization's branded template when one is set, and the default again once cleared", async () => {
    const branded = await t.createOrg('Brand <Co>');
    const token = await t.platformToken(branded.production);
    await t.ctx.orgs.updateOrganization(branded.organization_id, {
      connectEmail: {
        subject: 'Welcome to {{organization_name}}, sign in with {{code}}',
        text: 'BRANDED TEXT: enter {{ code }} within {{expires_in_minutes}} min.',
        html: '<h1>BRANDED HTML</h1><p>{{organization_name}}: <b>{{code}}</b></p>',
      },
    });
    const email = uniqueEmail();
    const connectId = await startAttempt(t, token, { email });
    const mail = mailTo(smtp, email);
    const code = codeIn(mail.headers.subject!);
    expect(mail.headers.subject).toBe(`Welcome to Brand <Co>, sign in with ${code}`);
    expect(mail.body).toContain(`BRANDED TEXT: enter ${code} within 10 min.`);
    expect(mail.body).toContain('<h1>BRANDED HTML</h1>');
    // Values are escaped inside the HTML template.
    expect(mail.body).toContain(`<p>Brand &lt;Co&gt;: <b>${code}</b></p>`);
    expect(mail.body).not.toContain('Your verification code');
    expect((await verify(t, token, { connect_id: connectId, code })).statusCode).toBe(200);

    await t.ctx.orgs.updateOrganization(branded.organization_id, {
      connectEmail: { subject: null, text: null, html: null },
    });
    const again = uniqueEmail();
    await startAttempt(t, token, { email: again });
    const plain = mailTo(smtp, again);
    expect(plain.body).not.toContain('BRANDED');
    expect(plain.headers.subject).not.toContain('Welcome');
    expect(plain.body).toContain('Your verification code for');
  });

  it('derives the plain-text part from a branded HTML-only template', async () => {
    const branded = await t.createOrg('Html Only');
    const token = await t.platformToken(branded.production);
    await t.ctx.orgs.updateOrganization(branded.organization_id, {
      connectEmail: {
        subject: null,
        text: null,
        html: '<p>HTML ONLY <b>{{code}}</b> for {{organization_name}}</p>',
      },
    });
    const email = uniqueEmail();
    await startAttempt(t, token, { email });
    const mail = mailTo(smtp, email);
    const code = codeIn(mail.headers.subject!);
    expect(mail.body).toContain(`<p>HTML ONLY <b>${code}</b> for Html Only</p>`);
    expect(mail.body).toContain(`HTML ONLY ${code} for Html Only`);
    expect(mail.body).not.toContain('Your verification code');
  });

  it('keeps sandbox mail in the outbox, away from the SMTP server', async () => {
    const email = uniqueEmail();
    const connectId = await startAttempt(t, sandbox, { email });
    expect(smtp.messages.some((m) => m.to.includes(email))).toBe(false);
    expect(await outboxCode(t, email)).toBe(SANDBOX_CODE);
    expect((await verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE })).statusCode).toBe(200);
  });

  it('answers 502 auth_provider_error when the server refuses the message; the attempt is dead', async () => {
    const refusing = await startFakeSmtp({ reject: true });
    const r = await startTestApp({ SMTP_URL: refusing.url, SANDBOX_REAL_DELIVERY: 'true' });
    try {
      const o = await r.createOrg();
      const live = await r.platformToken(o.production);
      const email = uniqueEmail();
      expectError(await start(r, live, { email }), 502, 'auth_provider_error');
      expectError(
        await verify(r, live, { connect_id: await attemptIdFor(r, email), code: '123456' }),
        400,
        'invalid_connect_attempt',
      );
      // With a known code (sandbox with real delivery), even the right code cannot verify it.
      const test = await r.platformToken(o.sandbox);
      const sandboxEmail = uniqueEmail();
      expectError(await start(r, test, { email: sandboxEmail }), 502, 'auth_provider_error');
      expectError(
        await verify(r, test, { connect_id: await attemptIdFor(r, sandboxEmail), code: SANDBOX_CODE }),
        400,
        'invalid_connect_attempt',
      );
      expect(refusing.messages).toEqual([]);
    } finally {
      await r.close();
      await refusing.close();
    }
  });

  it('answers 502 auth_provider_error when the SMTP server is unreachable', async () => {
    const r = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
    try {
      const o = await r.createOrg();
      const live = await r.platformToken(o.production);
      const email = uniqueEmail();
      expectError(await start(r, live, { email }), 502, 'auth_provider_error');
      expectError(
        await verify(r, live, { connect_id: await attemptIdFor(r, email), code: '123456' }),
        400,
        'invalid_connect_attempt',
      );
    } finally {
      await r.close();
    }
  });
});

describe('sandbox real delivery', () => {
  it('sends sandbox mail over SMTP when SANDBOX_REAL_DELIVERY is true, still with the constant code', async () => {
    const smtp = await startFakeSmtp();
    const t = await startTestApp({ SMTP_URL: smtp.url, SANDBOX_REAL_DELIVERY: 'true' });
    try {
      const o = await t.createOrg('Real Sandbox');
      const token = await t.platformToken(o.sandbox);
      const email = uniqueEmail();
      const connectId = await startAttempt(t, token, { email });
      const mail = mailTo(smtp, email);
      expect(codeIn(mail.headers.subject!)).toBe(SANDBOX_CODE);
      expect((await t.ctx.notifications.sentMessages(1000)).some((m) => m.recipient === email)).toBe(false);
      expect((await verify(t, token, { connect_id: connectId, code: SANDBOX_CODE })).statusCode).toBe(200);
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});

describe('SMS over a Twilio-style HTTP API', () => {
  let sms: FakeSms;
  let t: TestApp;
  let org: CreatedOrganization;
  let production: string;
  let sandbox: string;

  beforeAll(async () => {
    sms = await startFakeSms();
    t = await startTestApp({
      SMS_API_URL: sms.url,
      OUTBOUND_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
      SMS_ACCOUNT_SID: 'AC_test_sid',
      SMS_AUTH_TOKEN: 'sms-auth-token',
      SMS_FROM: '+15005550006',
    });
    org = await t.createOrg('Acme Pay');
    production = await t.platformToken(org.production);
    sandbox = await t.platformToken(org.sandbox);
  });
  afterAll(async () => {
    await t.close();
    await sms.close();
  });

  it('posts the production code to the provider, and that code verifies', async () => {
    sms.respondWith(201);
    const before = sms.requests.length;
    const connectId = await startAttempt(t, production, { phone: '+14155552671' });
    expect(sms.requests).toHaveLength(before + 1);
    const request = sms.requests[before]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/2010-04-01/Accounts/AC_test_sid/Messages.json');
    expect(request.basic).toEqual({ username: 'AC_test_sid', password: 'sms-auth-token' });
    expect(request.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(request.form).toEqual({ To: '+14155552671', From: '+15005550006', Body: expect.any(String) });
    expect(request.form.Body).toContain('Acme Pay');
    const code = codeIn(request.form.Body!);
    expect((await t.ctx.notifications.sentMessages(1000)).some((m) => m.recipient === '+14155552671')).toBe(
      false,
    );

    const res = await verify(t, production, { connect_id: connectId, code });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toEqual({ id: expect.any(String), email: null, phone: '+14155552671' });
  });

  it('answers 502 auth_provider_error when the provider fails; the attempt is dead', async () => {
    sms.respondWith(500);
    try {
      const phone = '+14155552672';
      expectError(await start(t, production, { phone }), 502, 'auth_provider_error');
      const row = await t.ctx.db
        .selectFrom('connect_attempts')
        .select('id')
        .where('phone', '=', phone)
        .executeTakeFirstOrThrow();
      const code = codeIn(sms.requests.at(-1)!.form.Body!);
      expectError(await verify(t, production, { connect_id: row.id, code }), 400, 'invalid_connect_attempt');
    } finally {
      sms.respondWith(201);
    }
  });

  it('keeps sandbox SMS in the outbox', async () => {
    const before = sms.requests.length;
    const connectId = await startAttempt(t, sandbox, { phone: '+14155552673' });
    expect(sms.requests).toHaveLength(before);
    expect(await outboxCode(t, '+14155552673')).toBe(SANDBOX_CODE);
    expect((await verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE })).statusCode).toBe(200);
  });

  it('answers 502 when the provider is unreachable', async () => {
    const r = await startTestApp({
      SMS_API_URL: `http://127.0.0.1:${await closedPort()}`,
      OUTBOUND_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
      SMS_ACCOUNT_SID: 'AC_x',
      SMS_AUTH_TOKEN: 'y',
      SMS_FROM: '+15005550006',
    });
    try {
      const o = await r.createOrg();
      expectError(
        await start(r, await r.platformToken(o.production), { phone: '+14155552674' }),
        502,
        'auth_provider_error',
      );
    } finally {
      await r.close();
    }
  });
});

describe('without a transport', () => {
  it('puts production email and SMS in the outbox when neither SMTP_URL nor SMS_API_URL is set', async () => {
    const t = await startTestApp();
    try {
      const o = await t.createOrg();
      const token = await t.platformToken(o.production);
      const email = uniqueEmail();
      const byEmail = await startAttempt(t, token, { email });
      const byPhone = await startAttempt(t, token, { phone: '+14155552675' });
      const outbox = await t.ctx.notifications.sentMessages(1000);
      expect(outbox.find((m) => m.recipient === email)?.channel).toBe('email');
      expect(outbox.find((m) => m.recipient === '+14155552675')?.channel).toBe('sms');
      const emailCode = await outboxCode(t, email);
      const smsCode = await outboxCode(t, '+14155552675');
      // At rest the live codes are sealed: neither appears in the stored rows.
      const stored = JSON.stringify(await t.ctx.db.selectFrom('sent_messages').selectAll().execute());
      expect(stored).toContain(email);
      expect(stored).not.toContain(emailCode);
      expect(stored).not.toContain(smsCode);
      expect((await verify(t, token, { connect_id: byEmail, code: emailCode })).statusCode).toBe(200);
      expect((await verify(t, token, { connect_id: byPhone, code: smsCode })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

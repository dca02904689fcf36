import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.ts';
import { expectError, uniqueEmail, useOrgApp } from '../helpers/fixtures.ts';
import { formBody, formFields } from '../links/helpers.ts';

/** Platform connect sessions: the API, member sign-in by email code, approving, and refusals. */
const f = useOrgApp({ name: 'Platform Co' });

const RETURN_URL = 'https://platform.example/connected';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function openSession(body: Record<string, unknown> = {}) {
  const response = await f.t.call('POST', '/api/v2/platform_connect_sessions', {
    token: f.sandbox,
    body: { return_url: RETURN_URL, ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  const session = response.json();
  return { session, path: new URL(session.url).pathname };
}

/** A browser: its cookies (page and member), and each form's hidden fields on the last page. */
function browser() {
  const jar: Record<string, string> = {};
  let html = '';
  const remember = (setCookie: string | string[] | undefined) => {
    for (const line of [setCookie ?? []].flat()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar[pair!.slice(0, at)] = pair!.slice(at + 1);
    }
  };
  const cookie = () =>
    Object.entries(jar)
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
  return {
    jar,
    async get(path: string) {
      const response = await f.t.request({ method: 'GET', url: path, headers: { cookie: cookie() } });
      remember(response.headers['set-cookie']);
      html = response.body;
      return response;
    },
    async post(path: string, purpose: string, fields: Record<string, string> = {}) {
      const forms = [...html.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)];
      const form = forms.find((m) => m[2]?.includes(`name="purpose" value="${purpose}"`));
      expect(form, `a ${purpose} form on the page`).toBeDefined();
      const hidden = formFields(`<form method="post" action="${form![1]}">${form![2]}</form>`, form![1]!);
      const response = await f.t.request({
        method: 'POST',
        url: path,
        headers: { ...FORM, cookie: cookie() },
        payload: formBody({ ...hidden, ...fields }),
      });
      remember(response.headers['set-cookie']);
      html = response.body;
      return response;
    },
  };
}

/** Signs a browser in on the page with the emailed code. */
async function signIn(b: ReturnType<typeof browser>, path: string, email: string) {
  await b.get(path);
  const asked = await b.post(path, 'email', { email });
  expect(asked.statusCode, asked.body).toBe(200);
  const code = await latestCode(email);
  const signed = await b.post(path, 'code', { code });
  expect(signed.statusCode, signed.body).toBe(303);
  return b.get(path);
}

async function latestCode(email: string): Promise<string> {
  const messages = (await f.t.ctx.notifications.sentMessages(1000)).filter((m) => m.recipient === email);
  return /\b(\d{6})\b/.exec(messages[0]!.body)![1]!;
}

const completedEvents = async () =>
  (
    await f.t.ctx.db
      .selectFrom('events')
      .select(['data', 'organization_id', 'livemode'])
      .where('type', '=', 'platform_connect_session.completed')
      .execute()
  ).map((row) => ({ ...JSON.parse(row.data), organization_id: row.organization_id, livemode: row.livemode }));

describe('POST /api/v2/platform_connect_sessions', () => {
  it('opens a session: 201 {object, id, url, expires_at, …}; GET answers it; other orgs and modes 404', async () => {
    const { session } = await openSession({ state: 's-1' });
    expect(session).toEqual({
      object: 'platform_connect_session',
      id: expect.stringMatching(/^pcs_/),
      url: expect.stringMatching(/\/platform-connect\/pct_[A-Za-z0-9]+$/),
      status: 'open',
      state: 's-1',
      return_url: RETURN_URL,
      connected_organization_id: null,
      livemode: false,
      expires_at: new Date(f.t.clock.now() + 3600_000).toISOString(),
      completed_at: null,
      created_at: new Date(f.t.clock.now()).toISOString(),
    });
    const url = `/api/v2/platform_connect_sessions/${session.id}`;
    expect((await f.t.call('GET', url, { token: f.sandbox })).json()).toEqual(session);
    expectError(await f.t.call('GET', url, { token: f.production }), 404, 'not_found');
    const other = await f.t.createOrg('Other platform');
    expectError(
      await f.t.call('GET', url, { token: await f.t.platformToken(other.sandbox) }),
      404,
      'not_found',
    );
    const viaKey = await f.t.call('POST', '/api/v2/platform_connect_sessions', {
      headers: { authorization: `Bearer ${f.org.sandbox.api_key}` },
      body: { return_url: RETURN_URL },
    });
    expect(viaKey.statusCode).toBe(401);
  });

  it('refuses bad bodies with 400 invalid_request naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'return_url'],
      [{ return_url: 'http://platform.example/' }, 'return_url'],
      [{ return_url: 'ftp://platform.example/' }, 'return_url'],
      [{ return_url: 'https://platform.example/#x' }, 'return_url'],
      [{ return_url: RETURN_URL, state: 'x'.repeat(1001) }, 'state'],
      [{ return_url: RETURN_URL, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const response = await f.t.call('POST', '/api/v2/platform_connect_sessions', {
        token: f.sandbox,
        body,
      });
      expectError(response, 400, 'invalid_request');
      expect(JSON.stringify(response.json().error)).toContain(field);
    }
  });
});

describe('the platform connect page', () => {
  it('asks a visitor to sign in, is never framed, and opening it changes nothing', async () => {
    const { path } = await openSession();
    const before = await f.t.ctx.db.selectFrom('member_sign_ins').selectAll().execute();
    const b = browser();
    const page = await b.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Connect to Platform Co');
    expect(page.body).toContain('name="email"');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['content-security-policy']).toContain("form-action 'self' https://platform.example");
    expect(await f.t.ctx.db.selectFrom('member_sign_ins').selectAll().execute()).toEqual(before);
  });

  it('a new company: sign in by code (never 111111), create an organization, its credentials once, the event without them', async () => {
    const { session, path } = await openSession({ state: 'new-co' });
    const b = browser();
    const email = uniqueEmail('founder');
    await b.get(path);
    await b.post(path, 'email', { email });
    const code = await latestCode(email);
    expect(code).not.toBe('111111');
    const sandboxCode = await b.post(path, 'code', { code: '111111' });
    expect(sandboxCode.statusCode).toBe(400);
    expect(sandboxCode.body).toContain('That code is not right');
    const signed = await b.post(path, 'code', { code });
    expect(signed.statusCode).toBe(303);
    expect(signed.headers['set-cookie']).toMatch(
      /^purser_member=mss_[A-Za-z0-9]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/,
    );
    const approve = await b.get(path);
    expect(approve.body).toContain(`Signed in as <strong>${email}</strong>`);
    const done = await b.post(path, 'approve', { organization: 'new', name: 'Corner Shop Ltd' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toMatch(/sk_test_[A-Za-z0-9]+/);
    const connected = (
      await f.t.call('GET', `/api/v2/platform_connect_sessions/${session.id}`, { token: f.sandbox })
    ).json();
    expect(connected).toMatchObject({
      status: 'completed',
      url: null,
      connected_organization_id: expect.stringMatching(/^org_/),
    });
    const events = (await completedEvents()).filter((e) => e.session_id === session.id);
    expect(events).toEqual([
      {
        session_id: session.id,
        state: 'new-co',
        connected_organization_id: connected.connected_organization_id,
        organization_id: f.org.organization_id,
        livemode: 0,
      },
    ]);
    expect(JSON.stringify(events)).not.toMatch(/sk_|cs_test|client_secret/);
    const list = (await f.t.call('GET', '/api/v2/connected_organizations', { token: f.sandbox })).json();
    expect(list.data[0]).toEqual({
      object: 'connected_organization',
      id: connected.connected_organization_id,
      name: 'Corner Shop Ltd',
      session_id: session.id,
      livemode: false,
      connected_at: connected.completed_at,
    });
    // The other mode has no connection; the founder owns the new organization.
    expect(
      (await f.t.call('GET', '/api/v2/connected_organizations', { token: f.production })).json().data,
    ).toEqual([]);
    const member = await f.t.ctx.members.signedIn(b.jar.purser_member);
    expect(member?.organizations).toEqual([
      { id: connected.connected_organization_id, name: 'Corner Shop Ltd', role: 'owner' },
    ]);
    // The link is spent: reopening shows it is done, a repeated post goes back.
    expect((await b.get(path)).body).toContain('Connected');
  });

  it('a double-submitted approval creating an organization makes one organization, connected once', async () => {
    const { session, path } = await openSession();
    const b = browser();
    await signIn(b, path, uniqueEmail('double'));
    const member = (await f.t.ctx.members.signedIn(b.jar.purser_member!))!;
    // Both submissions read the session while it was still open (two tabs, one click each).
    const open = await f.t.ctx.db
      .selectFrom('platform_connect_sessions')
      .selectAll()
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    const organizations = async () =>
      (
        await f.t.ctx.db
          .selectFrom('organizations')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await organizations();
    const approve = () =>
      f.t.ctx.platformConnect.approve(open, member, { newOrganizationName: 'Twice Ltd' }).then(
        (result) => result.outcome,
        (error: { code?: string }) => error.code,
      );
    expect((await Promise.all([approve(), approve()])).sort()).toEqual(['already_completed', 'connected']);
    expect(await organizations()).toBe(before + 1);
    expect((await f.t.ctx.members.signedIn(b.jar.purser_member!))?.organizations).toHaveLength(1);
  });

  it('an owner connects an existing organization and lands on return_url with session_id and state', async () => {
    const company = await f.t.createOrg('Existing Co');
    const email = uniqueEmail('owner');
    const printed: string[] = [];
    await runCommand(
      f.t.ctx,
      ['member', 'add', company.organization_id, '--email', email, '--role', 'owner'],
      (line) => printed.push(line),
    );
    expect(printed.join('\n')).toContain('owner');
    const { session, path } = await openSession({ state: 'back' });
    const b = browser();
    const page = await signIn(b, path, email);
    expect(page.body).toContain('Existing Co');
    const done = await b.post(path, 'approve', { organization: company.organization_id });
    expect(done.statusCode).toBe(303);
    const location = new URL(done.headers.location as string);
    expect(Object.fromEntries(location.searchParams)).toEqual({ session_id: session.id, state: 'back' });
    expect(
      (await completedEvents()).find((e) => e.session_id === session.id)?.connected_organization_id,
    ).toBe(company.organization_id);
  });

  it('refuses an organization the member does not own, and the platform’s own', async () => {
    const company = await f.t.createOrg('Dev Co');
    const email = uniqueEmail('dev');
    await f.t.ctx.members.add(company.organization_id, email, 'developer');
    await f.t.ctx.members.add(f.org.organization_id, email, 'owner');
    const { session, path } = await openSession();
    const b = browser();
    await signIn(b, path, email);
    expect((await b.post(path, 'approve', { organization: company.organization_id })).statusCode).toBe(400);
    await b.get(path);
    expect((await b.post(path, 'approve', { organization: f.org.organization_id })).statusCode).toBe(400);
    await b.get(path);
    expect((await b.post(path, 'approve', { organization: 'new', name: '' })).statusCode).toBe(400);
    const after = (
      await f.t.call('GET', `/api/v2/platform_connect_sessions/${session.id}`, { token: f.sandbox })
    ).json();
    expect(after.status).toBe('open');
    // Cancel goes back with error=access_denied, the session still open.
    await b.get(path);
    const cancel = await b.post(path, 'decline');
    expect(cancel.statusCode).toBe(303);
    expect(new URL(cancel.headers.location as string).searchParams.get('error')).toBe('access_denied');
  });

  it('forms need the page’s cookie and token; approving needs a signed-in member', async () => {
    const { path } = await openSession();
    const b = browser();
    await b.get(path);
    const stranger = await f.t.request({
      method: 'POST',
      url: path,
      headers: FORM,
      payload: formBody({ purpose: 'email', nonce: 'abcdefgh12', csrf: 'x', email: 'a@example.com' }),
    });
    expect(stranger.statusCode).toBe(403);
    const approve = await f.t.request({
      method: 'POST',
      url: path,
      headers: { ...FORM, cookie: `purser_pc=${b.jar.purser_pc}` },
      payload: formBody({
        purpose: 'approve',
        nonce: 'abcdefgh12',
        csrf: 'forged',
        organization: 'new',
        name: 'X',
      }),
    });
    expect(approve.statusCode).toBe(403);
  });

  it('rate-limits codes per email, ends a code after five wrong tries', async () => {
    const { path } = await openSession();
    const b = browser();
    const email = uniqueEmail('busy');
    await b.get(path);
    for (let i = 0; i < 5; i++) {
      expect((await b.post(path, 'email', { email })).statusCode).toBe(200);
      await b.get(path);
    }
    expect((await b.post(path, 'email', { email })).statusCode).toBe(429);

    const other = uniqueEmail('typo');
    await b.get(path);
    await b.post(path, 'email', { other, email: other });
    const code = await latestCode(other);
    for (let i = 0; i < 4; i++) expect((await b.post(path, 'code', { code: '000000' })).statusCode).toBe(400);
    const fifth = await b.post(path, 'code', { code: '000001' });
    expect(fifth.body).toContain('expired');
    // The form is gone (back to the email form); the right code no longer works.
    expect(
      await f.t.ctx.members.verifySignIn(
        (
          await f.t.ctx.db
            .selectFrom('member_sign_ins')
            .select('id')
            .where('email', '=', other)
            .executeTakeFirstOrThrow()
        ).id,
        code,
      ),
    ).toEqual({ outcome: 'expired' });
  });

  it('parallel wrong codes take at most five checks; the right code is then refused', async () => {
    const email = uniqueEmail('race');
    const { attemptId } = await f.t.ctx.members.startSignIn(email);
    const code = await latestCode(email);
    const guesses = Array.from({ length: 20 }, (_, i) => String(100_000 + i)).filter((g) => g !== code);
    const outcomes = await Promise.all(guesses.map((g) => f.t.ctx.members.verifySignIn(attemptId, g)));
    expect(outcomes.filter((o) => o.outcome === 'wrong_code').length).toBeLessThanOrEqual(4);
    expect(await f.t.ctx.members.verifySignIn(attemptId, code)).toEqual({ outcome: 'expired' });
  });

  it('an expired link is 410, an unknown one 404', async () => {
    const { path } = await openSession();
    f.t.clock.advance(3600_000);
    expect((await f.t.request({ method: 'GET', url: path })).statusCode).toBe(410);
    expect(
      (await f.t.request({ method: 'GET', url: '/platform-connect/pct_nope00000000000000000000' }))
        .statusCode,
    ).toBe(404);
    await f.renewTokens();
  });
});

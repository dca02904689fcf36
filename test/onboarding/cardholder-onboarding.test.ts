import { describe, expect, it } from 'vitest';
import { expectError, useCards } from '../cards/helpers.ts';
import { formBody } from '../links/helpers.ts';
import { onboardingForm } from './helpers.ts';

/** Hosted cardholder onboarding sessions: the v1 API, the page, both ways to complete, and refusals. */
const f = useCards();

const v1 = (method: string, url: string, body?: unknown, key = f.org.sandbox.api_key) =>
  f.t.call(method, url, { body, headers: { authorization: `Bearer ${key}` } });
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const RETURN_URL = 'https://platform.example/onboarding/done?from=purser';

const ada = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada.onboarding@example.com',
  date_of_birth: '1990-12-10',
  phone_number: '+14155550123',
};

let counter = 0;
async function openSession(body: Record<string, unknown> = {}) {
  const response = await v1('POST', '/api/v1/cardholder_onboarding_sessions', {
    external_user_id: `ext-${++counter}`,
    return_url: RETURN_URL,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  const session = response.json();
  const path = new URL(session.url).pathname;
  return { session, path };
}

/** Opens the page as one browser: its cookie, and the hidden fields of each form. */
async function openPage(path: string, cookie?: string) {
  const response = await f.t.request({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });
  expect(response.statusCode, response.body).toBe(200);
  const setCookie = response.headers['set-cookie'] as string | undefined;
  const browser = cookie ?? (setCookie as string).split(';')[0]!;
  const fields = (purpose: string) => onboardingForm(response.body, purpose);
  return { response, browser, fields };
}

const post = (path: string, cookie: string | null, fields: Record<string, string>) =>
  f.t.request({
    method: 'POST',
    url: path,
    headers: { ...FORM, ...(cookie ? { cookie } : {}) },
    payload: formBody(fields),
  });

async function count(table: 'cardholders' | 'cardholder_onboarding_sessions' | 'events') {
  return (
    await f.t.ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
}

describe('POST /api/v1/cardholder_onboarding_sessions', () => {
  it('opens a session: 201 with object, id, url, status, expires_at; GET answers the same', async () => {
    const response = await v1('POST', '/api/v1/cardholder_onboarding_sessions', {
      external_user_id: 'ext-created',
      email: 'Someone@Example.com',
      state: 'opaque state ✓',
      return_url: RETURN_URL,
    });
    expect(response.statusCode, response.body).toBe(201);
    const session = response.json();
    expect(session).toEqual({
      object: 'cardholder_onboarding_session',
      id: expect.stringMatching(/^cos_[A-Za-z0-9]+$/),
      url: expect.stringMatching(/^http:\/\/[^/]+\/onboarding\/onb_[A-Za-z0-9]+$/),
      status: 'open',
      external_user_id: 'ext-created',
      email: 'someone@example.com',
      state: 'opaque state ✓',
      return_url: RETURN_URL,
      cardholder_id: null,
      claimed_existing_cardholder: false,
      livemode: false,
      expires_at: new Date(f.t.clock.now() + 24 * 3600_000).toISOString(),
      completed_at: null,
      created_at: new Date(f.t.clock.now()).toISOString(),
    });
    const got = await v1('GET', `/api/v1/cardholder_onboarding_sessions/${session.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(session);
    // The link token is kept only as a digest and sealed.
    const row = await f.t.ctx.db
      .selectFrom('cardholder_onboarding_sessions')
      .selectAll()
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(new URL(session.url).pathname.split('/').pop());
  });

  it('another organization, the other mode, a platform token or no key: 404 or 401', async () => {
    const { session } = await openSession();
    const url = `/api/v1/cardholder_onboarding_sessions/${session.id}`;
    expectError(await v1('GET', url, undefined, f.org.production.api_key), 404, 'not_found');
    const other = await f.t.createOrg('Other onboarding');
    expectError(await v1('GET', url, undefined, other.sandbox.api_key), 404, 'not_found');
    expectError(await v1('GET', url, undefined, f.sandbox), 401, 'unauthorized');
    expectError(await f.t.call('GET', url), 401, 'unauthorized');
    expectError(await v1('GET', '/api/v1/cardholder_onboarding_sessions/cos_nope'), 404, 'not_found');
  });

  it('refuses bad bodies with 400 invalid_request naming the field, and opens nothing', async () => {
    const before = await count('cardholder_onboarding_sessions');
    const good = { external_user_id: 'ext-bad', return_url: RETURN_URL };
    const cases: [Record<string, unknown>, string][] = [
      [{ return_url: RETURN_URL }, 'external_user_id'],
      [{ external_user_id: 'x' }, 'return_url'],
      [{ ...good, external_user_id: '' }, 'external_user_id'],
      [{ ...good, external_user_id: 'x'.repeat(256) }, 'external_user_id'],
      [{ ...good, return_url: 'http://platform.example/done' }, 'return_url'],
      [{ ...good, return_url: '/relative' }, 'return_url'],
      [{ ...good, return_url: 'javascript:alert(1)' }, 'return_url'],
      [{ ...good, return_url: 'https://user:pw@platform.example/' }, 'return_url'],
      [{ ...good, return_url: 'https://platform.example/#frag' }, 'return_url'],
      [{ ...good, email: 'not-an-email' }, 'email'],
      [{ ...good, state: 'x'.repeat(1001) }, 'state'],
      [{ ...good, state: 42 }, 'state'],
      [{ ...good, surprise: true }, 'surprise'],
    ];
    for (const [body, field] of cases) {
      const response = await v1('POST', '/api/v1/cardholder_onboarding_sessions', body);
      expectError(response, 400, 'invalid_request');
      expect(JSON.stringify(response.json().error), JSON.stringify(body)).toContain(field);
    }
    expect(await count('cardholder_onboarding_sessions')).toBe(before);
    // Loopback http is allowed for development.
    await openSession({ return_url: 'http://127.0.0.1:3000/done' });
  });
});

describe('the hosted onboarding page', () => {
  it('shows the details form (email prefilled) and changes nothing when opened', async () => {
    const { path } = await openSession({ email: 'prefill@example.com' });
    const before = [
      await count('cardholders'),
      await count('events'),
      await count('cardholder_onboarding_sessions'),
    ];
    const { response, browser } = await openPage(path);
    const again = await openPage(path); // a link-preview fetch, another browser
    expect(again.response.statusCode).toBe(200);
    expect([
      await count('cardholders'),
      await count('events'),
      await count('cardholder_onboarding_sessions'),
    ]).toEqual(before);
    expect(browser).toMatch(/^purser_onboarding=[A-Za-z0-9]+$/);
    expect(response.headers['set-cookie']).toMatch(/HttpOnly/);
    expect(response.body).toContain('value="prefill@example.com"');
    expect(response.body).toContain('<span class="badge">Test mode</span>');
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    // The form's answer redirects to the return address, so form-action allows its origin.
    expect(csp).toContain("form-action 'self' https://platform.example");
    expect(csp).toMatch(/frame-ancestors /);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.body).not.toMatch(/<script|<link |src="http/);
  });

  it('details: a new cardholder, cardholder.created, the completed event with the spec fields, redirect with session_id and state', async () => {
    const { session, path } = await openSession({ state: 'st-1' });
    const page = await openPage(path);
    const response = await post(path, page.browser, {
      ...page.fields('details'),
      ...ada,
      phone_number: '+1 (415) 555-0123',
    });
    expect(response.statusCode, response.body).toBe(303);
    const location = new URL(response.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe('https://platform.example/onboarding/done');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      from: 'purser',
      session_id: session.id,
      state: 'st-1',
    });

    const done = (await v1('GET', `/api/v1/cardholder_onboarding_sessions/${session.id}`)).json();
    expect(done).toMatchObject({ status: 'completed', url: null, claimed_existing_cardholder: false });
    expect(done.cardholder_id).toMatch(/^ch_/);
    const cardholder = (await v1('GET', `/api/v1/cardholders/${done.cardholder_id}`)).json();
    expect(cardholder).toMatchObject({ ...ada, external_user_id: session.external_user_id });
    expect((await f.events('cardholder.created')).filter((e) => e.id === done.cardholder_id)).toHaveLength(1);
    const completed = (await f.events('cardholder_onboarding_session.completed')).filter(
      (e) => e.id === session.id,
    );
    expect(completed).toEqual([
      {
        id: session.id,
        status: 'completed',
        cardholder_id: done.cardholder_id,
        external_user_id: session.external_user_id,
        email: ada.email,
        claimed_existing_cardholder: false,
        state: 'st-1',
        completed_at: done.completed_at,
      },
    ]);

    // A resubmitted form completes nothing again; the page now says it is done.
    const cardholders = await count('cardholders');
    const repeat = await post(path, page.browser, { ...page.fields('details'), ...ada });
    expect(repeat.statusCode).toBe(303);
    expect(await count('cardholders')).toBe(cardholders);
    const after = await f.t.request({ method: 'GET', url: path });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('You are all set');
  });

  it('a session without state redirects with session_id only', async () => {
    const { session, path } = await openSession();
    const page = await openPage(path);
    const response = await post(path, page.browser, {
      ...page.fields('details'),
      ...ada,
      email: 'no-state@example.com',
    });
    const location = new URL(response.headers.location as string);
    expect(Object.fromEntries(location.searchParams)).toEqual({ from: 'purser', session_id: session.id });
  });

  it('invalid details: 400, the page again naming each field, nothing created', async () => {
    const { path } = await openSession();
    const page = await openPage(path);
    const before = [await count('cardholders'), await count('events')];
    const response = await post(path, page.browser, {
      ...page.fields('details'),
      first_name: '',
      last_name: 'L'.repeat(101),
      email: 'nope',
      date_of_birth: '2999-01-01',
      phone_number: '12345',
    });
    expect(response.statusCode).toBe(400);
    for (const field of ['first_name', 'last_name', 'email', 'date_of_birth', 'phone_number'])
      expect(response.body).toContain(`id="f_${field}_e"`);
    expect([await count('cardholders'), await count('events')]).toEqual(before);
  });

  it('a form from another browser, without the page cookie, or with a forged token is 403 and changes nothing', async () => {
    const { path } = await openSession();
    const page = await openPage(path);
    const other = await openPage(path);
    const before = await count('cardholders');
    const fields = { ...page.fields('details'), ...ada };
    expect((await post(path, null, fields)).statusCode).toBe(403);
    expect((await post(path, other.browser, fields)).statusCode).toBe(403);
    expect((await post(path, page.browser, { ...fields, csrf: 'forged' })).statusCode).toBe(403);
    // A token made for another form of the page does not work for this one.
    expect(
      (await post(path, page.browser, { ...page.fields('claim_start'), purpose: 'details', ...ada }))
        .statusCode,
    ).toBe(403);
    expect((await post(path, page.browser, { ...fields, purpose: 'other' })).statusCode).toBe(400);
    expect(await count('cardholders')).toBe(before);
  });

  it('claim: a code to the email of an existing cardholder links it; no new cardholder', async () => {
    const email = 'claimer@example.com';
    const existing = (
      await v1('POST', '/api/v1/cardholders', { ...ada, email, external_user_id: 'old-id' })
    ).json();
    const { session, path } = await openSession({ state: 'claim-state' });
    const page = await openPage(path);
    const asked = await post(path, page.browser, {
      ...page.fields('claim_start'),
      email: 'Claimer@Example.com ',
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('we sent you a code');
    const message = (await f.t.ctx.notifications.sentMessages(1000)).find((m) => m.recipient === email);
    expect(message?.body).toContain('111111');

    // Wrong codes say so and count; the right one completes.
    const afterAsk = await openPage(path, page.browser);
    const wrong = await post(path, page.browser, { ...afterAsk.fields('claim_verify'), code: '123456' });
    expect(wrong.body).toContain('That code is not right');
    const cardholders = await count('cardholders');
    const created = (await f.events('cardholder.created')).length;
    const right = await post(path, page.browser, { ...afterAsk.fields('claim_verify'), code: '111111' });
    expect(right.statusCode, right.body).toBe(303);
    expect(new URL(right.headers.location as string).searchParams.get('state')).toBe('claim-state');
    expect(await count('cardholders')).toBe(cardholders);
    expect((await f.events('cardholder.created')).length).toBe(created);
    const done = (await v1('GET', `/api/v1/cardholder_onboarding_sessions/${session.id}`)).json();
    expect(done).toMatchObject({
      status: 'completed',
      cardholder_id: existing.id,
      claimed_existing_cardholder: true,
    });
    const [event] = (await f.events('cardholder_onboarding_session.completed')).filter(
      (e) => e.id === session.id,
    );
    expect(event).toEqual({
      id: session.id,
      status: 'completed',
      cardholder_id: existing.id,
      external_user_id: session.external_user_id,
      email,
      claimed_existing_cardholder: true,
      state: 'claim-state',
      completed_at: done.completed_at,
    });
    // The cardholder is now the platform's user of this session.
    expect((await v1('GET', `/api/v1/cardholders/${existing.id}`)).json().external_user_id).toBe(
      session.external_user_id,
    );
  });

  it('details with the email of an existing cardholder make no second one: a code to that email claims it', async () => {
    const email = 'twice@example.com';
    const existing = (await v1('POST', '/api/v1/cardholders', { ...ada, email })).json();
    const cardholders = await count('cardholders');
    const { session, path } = await openSession();
    const page = await openPage(path);
    const typed = await post(path, page.browser, {
      ...page.fields('details'),
      ...ada,
      email: 'Twice@Example.com',
    });
    expect(typed.statusCode, typed.body).toBe(200);
    expect(typed.body).toContain('we sent you a code');
    expect(await count('cardholders')).toBe(cardholders);
    expect((await f.t.ctx.notifications.sentMessages(1000)).some((m) => m.recipient === email)).toBe(true);
    const again = await openPage(path, page.browser);
    const right = await post(path, page.browser, { ...again.fields('claim_verify'), code: '111111' });
    expect(right.statusCode, right.body).toBe(303);
    expect(await count('cardholders')).toBe(cardholders);
    expect((await v1('GET', `/api/v1/cardholder_onboarding_sessions/${session.id}`)).json()).toMatchObject({
      cardholder_id: existing.id,
      claimed_existing_cardholder: true,
    });
  });

  it('two sessions completing at once with one new email make one cardholder; the other is sent a code', async () => {
    const email = 'at-once@example.com';
    const cardholders = await count('cardholders');
    const pages = await Promise.all(
      [1, 2, 3].map(async () => {
        const { session, path } = await openSession();
        return { session, path, page: await openPage(path) };
      }),
    );
    const answers = await Promise.all(
      pages.map(({ path, page }) => post(path, page.browser, { ...page.fields('details'), ...ada, email })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 303]);
    for (const answer of answers.filter((a) => a.statusCode === 200))
      expect(answer.body).toContain('we sent you a code');
    expect(await count('cardholders')).toBe(cardholders + 1);
    const states = await Promise.all(
      pages.map(async ({ session }) =>
        (await v1('GET', `/api/v1/cardholder_onboarding_sessions/${session.id}`)).json(),
      ),
    );
    expect(states.map((s) => s.status).sort()).toEqual(['completed', 'open', 'open']);
  });

  it('claim: an email with no cardholder gets the same answer, no email, and no code works', async () => {
    const { session, path } = await openSession();
    const page = await openPage(path);
    const email = 'nobody-here@example.com';
    const asked = await post(path, page.browser, { ...page.fields('claim_start'), email });
    expect(asked.body).toContain('we sent you a code');
    expect((await f.t.ctx.notifications.sentMessages(1000)).some((m) => m.recipient === email)).toBe(false);
    const again = await openPage(path, page.browser);
    const tried = await post(path, page.browser, { ...again.fields('claim_verify'), code: '111111' });
    expect(tried.body).toContain('That code is not right');
    expect((await v1('GET', `/api/v1/cardholder_onboarding_sessions/${session.id}`)).json().status).toBe(
      'open',
    );
  });

  it('claim: five wrong codes end the code; it expires after 10 minutes', async () => {
    await v1('POST', '/api/v1/cardholders', { ...ada, email: 'tries@example.com' });
    const { path } = await openSession();
    const page = await openPage(path);
    await post(path, page.browser, { ...page.fields('claim_start'), email: 'tries@example.com' });
    const verify = (await openPage(path, page.browser)).fields('claim_verify');
    for (let i = 0; i < 5; i++) await post(path, page.browser, { ...verify, code: '000000' });
    const locked = await post(path, page.browser, { ...verify, code: '111111' });
    expect(locked.statusCode).toBe(400);
    expect(locked.body).toContain('This code has expired');

    const second = await openSession();
    const page2 = await openPage(second.path);
    await post(second.path, page2.browser, { ...page2.fields('claim_start'), email: 'tries@example.com' });
    const verify2 = (await openPage(second.path, page2.browser)).fields('claim_verify');
    f.t.clock.advance(10 * 60_000);
    const late = await post(second.path, page2.browser, { ...verify2, code: '111111' });
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain('This code has expired');
  });

  it('claim: in production one email is sent at most five codes in 15 minutes, whichever link asks', async () => {
    const live = f.org.production.api_key;
    const opened = async () => {
      const response = await v1(
        'POST',
        '/api/v1/cardholder_onboarding_sessions',
        { external_user_id: `ext-${++counter}`, return_url: RETURN_URL },
        live,
      );
      expect(response.statusCode, response.body).toBe(201);
      const path = new URL(response.json().url).pathname;
      return { path, page: await openPage(path) };
    };
    const first = await opened();
    const second = await opened();
    const ask = async (at: { path: string; page: Awaited<ReturnType<typeof openPage>> }, email: string) =>
      post(at.path, at.page.browser, {
        ...(await openPage(at.path, at.page.browser)).fields('claim_start'),
        email,
      });
    for (let i = 0; i < 5; i++)
      expect((await ask(i % 2 ? first : second, 'limit@example.com')).statusCode).toBe(200);
    const refused = await ask(first, 'limit@example.com');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain('Too many codes');
    expect((await ask(second, 'LIMIT@example.com')).statusCode).toBe(429);
    expect((await ask(second, 'other@example.com')).statusCode).toBe(200);
    f.t.clock.advance(15 * 60_000);
    expect((await ask(first, 'limit@example.com')).statusCode).toBe(200);
  });

  it('an expired link is a 410 page and an expired session; an unknown one is 404', async () => {
    const { session, path } = await openSession();
    const page = await openPage(path);
    f.t.clock.advance(24 * 3600_000);
    const expired = await f.t.request({ method: 'GET', url: path });
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This link has expired');
    expect((await post(path, page.browser, { ...page.fields('details'), ...ada })).statusCode).toBe(410);
    expect((await v1('GET', `/api/v1/cardholder_onboarding_sessions/${session.id}`)).json()).toMatchObject({
      status: 'expired',
      url: null,
    });
    for (const unknown of ['/onboarding/onb_doesnotexist000000000000', '/onboarding/whatever'])
      expect((await f.t.request({ method: 'GET', url: unknown })).statusCode).toBe(404);
  });
});

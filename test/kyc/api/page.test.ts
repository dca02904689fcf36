import { describe, expect, it } from 'vitest';
import {
  cameraFrames,
  docs,
  driveTo,
  expectError,
  expectState,
  getState,
  information,
  kycEvents,
  newUser,
  openPage,
  PERSON_US_LICENCE,
  pagePath,
  submitPage,
  upload,
  useKycApp,
} from './helpers.ts';

// Tests move the clock by minutes or days: fresh platform tokens for each.
const f = useKycApp({ each: 'tokens' });

describe('the hosted page link (iframe_url)', () => {
  it('opens a server-rendered page framable only by loopback origins, never cached or referred', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = expectState(await getState(f.t, u), 'awaiting_documents');
    const res = await f.t.request({ method: 'GET', url: pagePath(state.iframe_url as string) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain('frame-ancestors http://localhost:* http://127.0.0.1:*');
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('front and back');
  });

  it('may be framed by the embed origins of its organization and mode (plus loopback in test mode), else by none', async () => {
    const frameAncestors = async (token: string, production = false) => {
      const u = await newUser(f.t, token, { production });
      const state = expectState(await getState(f.t, u), 'awaiting_documents');
      const res = await f.t.request({ method: 'GET', url: pagePath(state.iframe_url as string) });
      return /frame-ancestors ([^;]+)/.exec(String(res.headers['content-security-policy']))?.[1];
    };
    const o = await f.t.createOrg('Embedding');
    const test = await f.t.platformToken(o.sandbox);
    const live = await f.t.platformToken(o.production);
    expect(await frameAncestors(live, true)).toBe("'none'");
    const put = (token: string, origins: string[]) =>
      f.t.call('PUT', '/api/v2/embed_origins', { token, body: { origins } });
    expect((await put(live, ['https://app.example.com', 'https://www.example.com'])).statusCode).toBe(200);
    expect((await put(test, ['https://staging.example.com'])).statusCode).toBe(200);
    expect(await frameAncestors(live, true)).toBe('https://app.example.com https://www.example.com');
    expect(await frameAncestors(test)).toBe(
      'http://localhost:* http://127.0.0.1:* https://staging.example.com',
    );
    // Another organization's origins never apply.
    expect(await frameAncestors(f.sandbox)).toBe('http://localhost:* http://127.0.0.1:*');
    // A dead link's page holds nothing to protect.
    const dead = await f.t.request({ method: 'GET', url: '/kyc/verify/not-a-link' });
    expect(String(dead.headers['content-security-policy'])).toContain('frame-ancestors *');
  });

  it('polls return the same link, which keeps working; once renewed near expiry, the older one answers 410', async () => {
    const u = await newUser(f.t, f.sandbox);
    const older = expectState(await getState(f.t, u), 'awaiting_documents').iframe_url as string;
    for (let i = 0; i < 3; i++) {
      expect(expectState(await getState(f.t, u), 'awaiting_documents').iframe_url).toBe(older);
      expect((await f.t.request({ method: 'GET', url: pagePath(older) })).statusCode).toBe(200);
    }
    f.t.clock.advance(700_000);
    const newer = expectState(await getState(f.t, u), 'awaiting_documents').iframe_url as string;
    expect(newer).not.toBe(older);
    expect((await f.t.request({ method: 'GET', url: pagePath(older) })).statusCode).toBe(410);
    expect((await f.t.request({ method: 'GET', url: pagePath(newer) })).statusCode).toBe(200);
  });

  it('expires: 410 after KYC_LINK_TTL_SECONDS (900 by default)', async () => {
    const u = await newUser(f.t, f.sandbox);
    const link = expectState(await getState(f.t, u), 'awaiting_documents').iframe_url as string;
    f.t.clock.advance(899_000);
    expect((await f.t.request({ method: 'GET', url: pagePath(link) })).statusCode).toBe(200);
    f.t.clock.advance(2_000);
    expect((await f.t.request({ method: 'GET', url: pagePath(link) })).statusCode).toBe(410);
  });

  it('is bound to its verification and user: a changed part or another verification id answers 404', async () => {
    const a = await newUser(f.t, f.sandbox);
    const b = await newUser(f.t, f.sandbox);
    const linkA = pagePath(expectState(await getState(f.t, a), 'awaiting_documents').iframe_url as string);
    const linkB = pagePath(expectState(await getState(f.t, b), 'awaiting_documents').iframe_url as string);
    const [idA, nonceA, expA, sigA] = linkA.split('/').pop()!.split('.');
    const [idB] = linkB.split('/').pop()!.split('.');
    const tampered = [
      `/kyc/verify/${idB}.${nonceA}.${expA}.${sigA}`,
      `/kyc/verify/${idA}.${nonceA}.${Number(expA) + 3600}.${sigA}`,
      `/kyc/verify/${idA}.${nonceA}.${expA}.${sigA!.slice(0, -1)}${sigA!.endsWith('A') ? 'B' : 'A'}`,
      '/kyc/verify/nonsense',
    ];
    for (const url of tampered) expect((await f.t.request({ method: 'GET', url })).statusCode, url).toBe(404);
  });
});

describe('the hosted page form', () => {
  it('prefills the read values for confirmation, never the document number, and collects the rest', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'needs_information');
    const { html } = await openPage(f.t, state.iframe_url as string);
    expect(html).toContain('value="JORDAN"');
    expect(html).toContain('value="123 MAIN ST"');
    expect(html).toMatch(/id="f_national_id_number" name="national_id_number" type="text" value=""/);
    expect(html).not.toContain(PERSON_US_LICENCE.documentNumber);
    expect(html).toContain('getUserMedia');
  });

  it('escapes everything it renders', async () => {
    const u = await newUser(f.t, f.sandbox);
    await upload(f.t, u, 'front', await docs.passport(), { document_type: 'passport' });
    const attack = '"><img src=x onerror=alert(1)>';
    const state = expectState(
      await information(f.t, u, {
        address_line1: attack,
        address_city: '<script>alert(1)</script>',
        address_region: 'CA',
        address_postal_code: '95014',
        address_country: 'US',
        national_id_number: '123456789',
      }),
      'requires_verification',
    );
    const { html } = await openPage(f.t, state.iframe_url as string);
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
  });

  it('needs_information: the required fields and the face scan in one go move to pending (two events)', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'needs_information');
    const { session } = await openPage(f.t, state.iframe_url as string);
    const res = await submitPage(f.t, session, {
      fields: { national_id_number: '123-45-6789', first_name: 'Jordan' },
      frames: cameraFrames(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ object: 'kyc', status: 'pending' });
    // The two moves of this one submission share a timestamp, so compare without order.
    expect((await kycEvents(f.t, u)).map((e) => e.data.status).sort()).toEqual([
      'needs_information',
      'pending',
      'requires_verification',
    ]);
  });

  it('refuses a missing, still or blank face scan (422 face_scan_failed) without saving anything', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'requires_verification');
    const { session } = await openPage(f.t, state.iframe_url as string);
    const still = cameraFrames(1)[0] as string;
    for (const frames of [[], [still, still, still], cameraFrames(2)]) {
      expectError(await submitPage(f.t, session, { fields: {}, frames }), 422, 'face_scan_failed');
    }
    expectState(await getState(f.t, u), 'requires_verification');
  });

  it('refuses fields it did not ask for and bad formats', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'requires_verification');
    const { session } = await openPage(f.t, state.iframe_url as string);
    let error = expectError(
      await submitPage(f.t, session, { fields: { national_id_number: '123456789' }, frames: cameraFrames() }),
      400,
      'invalid_request',
    );
    expect(error.field_errors).toEqual({ national_id_number: 'was not asked for' });
    error = expectError(
      await submitPage(f.t, session, { fields: { date_of_birth: '03/11/1985' }, frames: cameraFrames() }),
      400,
      'invalid_request',
    );
    expect(error.field_errors).toHaveProperty('date_of_birth');
  });

  it('a page session ends after KYC_SESSION_TTL_SECONDS', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'requires_verification');
    const { session } = await openPage(f.t, state.iframe_url as string);
    f.t.clock.advance(1801_000);
    expectError(
      await submitPage(f.t, session, { fields: {}, frames: cameraFrames() }),
      401,
      'session_expired',
    );
  });

  it('polling the API while the page is open does not break the open page', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'requires_verification');
    const { session } = await openPage(f.t, state.iframe_url as string);
    expectState(await getState(f.t, u), 'requires_verification');
    expect(
      (await submitPage(f.t, session, { fields: { last_name: 'Tremblay-Roy' }, frames: cameraFrames() }))
        .statusCode,
    ).toBe(200);
    expectState(await getState(f.t, u), 'pending');
  });
});

import type { LightMyRequestResponse } from 'fastify';
import jpeg from 'jpeg-js';
import { expect } from 'vitest';
import { closeReader } from '../../../src/domains/kyc/reader/index.ts';
import {
  generateLicenceBack,
  generateLicenceFront,
  generatePassportPage,
  SAMPLE_CA_LICENCE,
  SAMPLE_PASSPORT,
  SAMPLE_US_LICENCE,
} from '../../../src/domains/kyc/testdocs/index.ts';
import {
  connectUser,
  type OrgApp,
  type UseOrgAppOptions,
  uniqueEmail,
  useOrgApp,
} from '../../helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../helpers/harness.ts';

export { expectError, uniqueEmail } from '../../helpers/fixtures.ts';

export const REVIEWER_TOKEN = 'rvw_test_token_0123456789abcdef';

export function startKycApp(env: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp({ KYC_REVIEWER_TOKEN: REVIEWER_TOKEN, ...env });
}

/** The KYC app and organization of a test file (`useOrgApp`); the document reader closes after it. */
export function useKycApp(options: UseOrgAppOptions = {}): OrgApp {
  return useOrgApp({ start: startKycApp, afterClose: closeReader, ...options });
}

const cache = new Map<string, Promise<string>>();
function memo(key: string, make: () => Promise<Buffer> | Buffer): Promise<string> {
  let value = cache.get(key);
  if (!value) {
    value = Promise.resolve(make()).then((b) => b.toString('base64'));
    cache.set(key, value);
  }
  return value;
}

export const PERSON_US_LICENCE = { ...SAMPLE_US_LICENCE, documentNumber: 'D2040608' };
export const PERSON_CA_LICENCE = { ...SAMPLE_CA_LICENCE, documentNumber: 'T2040-60810-51103' };

/** Synthetic documents (from the testdocs generator), base64-encoded, generated once per file. */
export const docs = {
  usFront: () => memo('usFront', () => generateLicenceFront({ ...SAMPLE_US_LICENCE, country: 'US' })),
  /** The fronts of the documents whose backs follow (same number, name and birth date). */
  usFrontOther: () =>
    memo('usFrontOther', () =>
      generateLicenceFront({ ...SAMPLE_US_LICENCE, documentNumber: 'D7654321', country: 'US' }),
    ),
  usFrontMinor: () =>
    memo('usFrontMinor', () => {
      const year = new Date().getUTCFullYear() - 15;
      return generateLicenceFront({
        ...SAMPLE_US_LICENCE,
        documentNumber: 'D5550001',
        dateOfBirth: `${year}-03-04`,
        country: 'US',
      });
    }),
  stateIdFront: () =>
    memo('stateIdFront', () =>
      generateLicenceFront({
        ...SAMPLE_US_LICENCE,
        documentNumber: 'S1112223',
        documentType: 'state_id',
        country: 'US',
      }),
    ),
  usBack: () =>
    memo('usBack', () => generateLicenceBack({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: 10 })),
  usBackOther: () =>
    memo('usBackOther', () =>
      generateLicenceBack({
        ...SAMPLE_US_LICENCE,
        documentNumber: 'D7654321',
        country: 'US',
        aamvaVersion: 9,
      }),
    ),
  usBackMinor: () =>
    memo('usBackMinor', () => {
      const year = new Date().getUTCFullYear() - 15;
      return generateLicenceBack({
        ...SAMPLE_US_LICENCE,
        documentNumber: 'D5550001',
        dateOfBirth: `${year}-03-04`,
        country: 'US',
        aamvaVersion: 10,
      });
    }),
  usBackExpired: () =>
    memo('usBackExpired', () =>
      generateLicenceBack({
        ...SAMPLE_US_LICENCE,
        country: 'US',
        aamvaVersion: 9,
        issueDate: '2015-06-30',
        expiryDate: '2020-06-30',
      }),
    ),
  stateIdBack: () =>
    memo('stateIdBack', () =>
      generateLicenceBack({
        ...SAMPLE_US_LICENCE,
        documentNumber: 'S1112223',
        documentType: 'state_id',
        country: 'US',
        aamvaVersion: 8,
      }),
    ),
  caFront: () => memo('caFront', () => generateLicenceFront({ ...SAMPLE_CA_LICENCE, country: 'CA' })),
  caBackJpeg: () =>
    memo('caBackJpeg', () =>
      generateLicenceBack({ ...SAMPLE_CA_LICENCE, country: 'CA', aamvaVersion: 8, format: 'jpeg' }),
    ),
  passport: () => memo('passport', () => generatePassportPage(SAMPLE_PASSPORT)),
  /** The sample people with documents of their own (not the sample set's), which live mode accepts. */
  personUsFront: () =>
    memo('personUsFront', () => generateLicenceFront({ ...PERSON_US_LICENCE, country: 'US' })),
  personUsBack: () =>
    memo('personUsBack', () =>
      generateLicenceBack({ ...PERSON_US_LICENCE, country: 'US', aamvaVersion: 10 }),
    ),
  personCaFront: () =>
    memo('personCaFront', () => generateLicenceFront({ ...PERSON_CA_LICENCE, country: 'CA' })),
  personCaBackJpeg: () =>
    memo('personCaBackJpeg', () =>
      generateLicenceBack({ ...PERSON_CA_LICENCE, country: 'CA', aamvaVersion: 8, format: 'jpeg' }),
    ),
  /** A decodable PNG with nothing on it: the reader cannot find a document. */
  blank: () =>
    memo('blank', () => {
      const data = Buffer.alloc(800 * 500 * 4, 0x80);
      return Buffer.from(jpeg.encode({ data, width: 800, height: 500 }, 90).data);
    }),
};

/** JPEG camera frames that differ from each other, as a moving camera's would. */
export function cameraFrames(count = 3): string[] {
  const frames: string[] = [];
  for (let f = 0; f < count; f++) {
    const width = 320;
    const height = 240;
    const data = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        data[i] = (x * 3 + f * 40) % 256;
        data[i + 1] = (y * 2 + f * 70) % 256;
        data[i + 2] = ((x + y) * 2) % 256;
        data[i + 3] = 255;
      }
    }
    frames.push(Buffer.from(jpeg.encode({ data, width, height }, 80).data).toString('base64'));
  }
  return frames;
}

/** A KYC state body as the tests read it. */
export interface KycBody {
  object: string;
  status: string;
  required_fields?: string[];
  iframe_url?: string;
  warnings?: string[];
  extracted?: Record<string, string>;
  reason?: string;
}

export interface KycUser {
  token: string;
  userId: string;
}

/** Connects a new user and returns the platform token and the user id. */
export async function newUser(
  t: TestApp,
  token: string,
  options: { production?: boolean } = {},
): Promise<KycUser> {
  const connected = await connectUser(t, token, { email: uniqueEmail('kyc') }, options);
  return { token, userId: connected.userId };
}

export function getState(t: TestApp, u: KycUser): Promise<LightMyRequestResponse> {
  return t.call('GET', `/api/v2/kyc?user_id=${encodeURIComponent(u.userId)}`, { token: u.token });
}

/** Moves the test clock on after a call that may emit events, so events order by time. */
async function tick<T>(t: TestApp, call: Promise<T>): Promise<T> {
  const result = await call;
  t.clock.advance(1000);
  return result;
}

export async function upload(
  t: TestApp,
  u: KycUser,
  side: 'front' | 'back',
  image: string,
  extra: Record<string, unknown> = {},
): Promise<LightMyRequestResponse> {
  return tick(
    t,
    t.call('POST', `/api/v2/kyc/documents/${side}`, {
      token: u.token,
      body: {
        user_id: u.userId,
        image,
        mime_type: 'image/png',
        document_type: 'drivers_license',
        issuing_country: 'US',
        ...extra,
      },
    }),
  );
}

export function information(t: TestApp, u: KycUser, fields: Record<string, string>) {
  return t.call('POST', '/api/v2/kyc/information', {
    token: u.token,
    body: { user_id: u.userId, ...fields },
  });
}

export function simulate(t: TestApp, u: KycUser, outcome: string, reason?: string) {
  return tick(
    t,
    t.call('POST', '/api/v2/kyc/simulate', {
      token: u.token,
      body: { user_id: u.userId, outcome, ...(reason !== undefined ? { reason } : {}) },
    }),
  );
}

/** Asserts a 200 KYC state with this status and returns the body. */
export function expectState(response: LightMyRequestResponse, status: string): KycBody {
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  expect(body.object).toBe('kyc');
  expect(body.status).toBe(status);
  // The contract (spec §2): required_fields only on needs_information; iframe_url on every actionable status.
  expect('required_fields' in body).toBe(status === 'needs_information');
  expect('iframe_url' in body).toBe(
    ['awaiting_documents', 'needs_information', 'requires_verification'].includes(status),
  );
  if (!['needs_information', 'awaiting_documents', 'requires_verification', 'rejected'].includes(status))
    expect(body.reason).toBeUndefined();
  return body;
}

/** The path of an iframe_url, for inject. */
export function pagePath(iframeUrl: string): string {
  const url = new URL(iframeUrl);
  return url.pathname;
}

/** The page cookie each opened session was bound to, as a browser would keep it. */
const pageCookies = new Map<string, string>();

/**
 * Opens the hosted page as a browser would (sending `cookie`, the page cookie it holds, if any) and
 * returns its session token (embedded in the page) and the page cookie it set (`name=value`).
 */
export async function openPage(
  t: TestApp,
  iframeUrl: string,
  options: { cookie?: string } = {},
): Promise<{ html: string; session: string; cookie: string }> {
  const res = await t.request({
    method: 'GET',
    url: pagePath(iframeUrl),
    headers: options.cookie ? { cookie: options.cookie } : {},
  });
  expect(res.statusCode, res.body).toBe(200);
  const match = /data-session="(kys_[A-Za-z0-9]+)"/.exec(res.body);
  expect(match, 'session token in page').not.toBeNull();
  const session = match![1]!;
  const setCookie = res.headers['set-cookie'];
  const cookie = (typeof setCookie === 'string' ? setCookie.split(';')[0] : undefined) ?? options.cookie;
  expect(cookie, 'page cookie').toEqual(expect.any(String));
  pageCookies.set(session, cookie as string);
  return { html: res.body, session, cookie: cookie as string };
}

/** Posts the hosted page's form with the page cookie its session was opened with (or `cookie`). */
export function submitPage(
  t: TestApp,
  session: string,
  body: Record<string, unknown>,
  options: { cookie?: string | null } = {},
) {
  const cookie = options.cookie === undefined ? pageCookies.get(session) : options.cookie;
  return tick(
    t,
    t.call('POST', '/kyc/verify/submit', {
      body: { session, ...body },
      headers: cookie ? { cookie } : {},
    }),
  );
}

/** Drives a user to the given status through the API and the hosted page (sandbox or live). */
export async function driveTo(
  t: TestApp,
  u: KycUser,
  target: 'needs_information' | 'requires_verification' | 'pending',
): Promise<KycBody> {
  // A person's own documents (live refuses the sample set). A Canadian licence reads complete, so
  // the back goes straight to requires_verification.
  if (target === 'needs_information') {
    expectState(await upload(t, u, 'front', await docs.personUsFront()), 'awaiting_documents');
    return expectState(await upload(t, u, 'back', await docs.personUsBack()), 'needs_information');
  }
  const ca = { issuing_country: 'CA' };
  expectState(await upload(t, u, 'front', await docs.personCaFront(), ca), 'awaiting_documents');
  const back = expectState(
    await upload(t, u, 'back', await docs.personCaBackJpeg(), { ...ca, mime_type: 'image/jpeg' }),
    'requires_verification',
  );
  if (target === 'requires_verification') return back;
  const { session } = await openPage(t, back.iframe_url as string);
  const done = await submitPage(t, session, { fields: {}, frames: cameraFrames() });
  expect(done.statusCode, done.body).toBe(200);
  return expectState(await getState(t, u), 'pending');
}

export interface KycEvent {
  id: string;
  type: string;
  livemode: boolean;
  data: { user_id: string; status: string; reason: string | null; required_fields: string[] | null };
}

/** The identity.verification.updated events of a user, oldest first (from GET /api/v2/events). */
export async function kycEvents(t: TestApp, u: KycUser): Promise<KycEvent[]> {
  const res = await t.call('GET', '/api/v2/events?type=identity.verification.updated&limit=100', {
    token: u.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as KycEvent[]).filter((e) => e.data.user_id === u.userId).reverse();
}

export function review(t: TestApp, verificationId: string, action: string, body?: Record<string, unknown>) {
  return tick(
    t,
    t.call('POST', `/operator/kyc/reviews/${verificationId}/${action}`, {
      token: REVIEWER_TOKEN,
      ...(body ? { body } : {}),
    }),
  );
}

/** The verification id of a user (the review queue names verifications by id). */
export async function verificationId(t: TestApp, u: KycUser): Promise<string> {
  const row = await t.ctx.db
    .selectFrom('kyc_verifications')
    .select('id')
    .where('user_id', '=', u.userId)
    .executeTakeFirstOrThrow();
  return row.id;
}

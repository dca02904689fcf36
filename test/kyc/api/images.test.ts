/**
 * Image work never runs on the API's event loop, images too large to decode are refused from their
 * header, and each page session has a face-scan budget (docs/kyc.md, "Images and availability").
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeReader } from '../../../src/domains/kyc/reader/index.ts';
import type { TestApp } from '../../helpers/harness.ts';
import { forgedImages, type HeaderProblem, smallPng } from '../images.ts';
import {
  cameraFrames,
  docs,
  driveTo,
  expectError,
  expectState,
  getState,
  type KycUser,
  newUser,
  openPage,
  startKycApp,
  submitPage,
  upload,
} from './helpers.ts';

// These spies call through and only count: they see the decoders of this thread (the API's), not the
// reader threads', which load their own copy. So a decode counted here ran on the event loop.
const jpegDecodes = vi.spyOn(jpeg, 'decode');
const pngReads = vi.spyOn(PNG.sync, 'read');
const decodesHere = () => jpegDecodes.mock.calls.length + pngReads.mock.calls.length;

/** The test documents are 1350 × 850; the camera frames 320 × 240. The limits sit exactly there. */
const LIMITS = {
  KYC_IMAGE_MAX_PIXELS: String(1350 * 850),
  KYC_IMAGE_MAX_BYTES: '200000',
  KYC_FRAME_MAX_PIXELS: String(320 * 240),
  KYC_FRAME_MAX_BYTES: '100000',
};
const FACE_SCAN_BUDGET = 3;

/** Images read on the API's own thread: any decode at all is counted. */
let inline: TestApp;
/** Images read on a reader thread (the default). */
let pooled: TestApp;

beforeAll(async () => {
  inline = await startKycApp({ ...LIMITS, KYC_READER_THREADS: '0', KYC_FACE_SCAN_RATE_LIMIT: '1000' });
  pooled = await startKycApp({
    ...LIMITS,
    KYC_READER_THREADS: '1',
    KYC_FACE_SCAN_RATE_LIMIT: String(FACE_SCAN_BUDGET),
  });
});
afterAll(async () => {
  await inline?.close();
  await pooled?.close();
  await closeReader();
});

async function user(t: TestApp): Promise<KycUser> {
  const org = await t.createOrg();
  return newUser(t, await t.platformToken(org.sandbox));
}

const CODES: Record<'document' | 'frame', Record<HeaderProblem, string>> = {
  document: {
    too_large: 'image_too_large',
    corrupt: 'document_unreadable',
    not_jpeg_or_png: 'document_unreadable',
  },
  frame: { too_large: 'image_too_large', corrupt: 'face_scan_failed', not_jpeg_or_png: 'face_scan_failed' },
};

describe('image work runs on the reader threads, never on the event loop', () => {
  it('with reader threads, the API thread decodes nothing: not the document photos, not the face-scan frames', async () => {
    const u = await user(pooled);
    jpegDecodes.mockClear();
    pngReads.mockClear();
    const back = await driveTo(pooled, u, 'requires_verification');
    const { session } = await openPage(pooled, back.iframe_url!);
    const done = await submitPage(pooled, session, { fields: {}, frames: cameraFrames() });
    expect(done.statusCode, done.body).toBe(200);
    expectState(await getState(pooled, u), 'pending');
    expect(decodesHere()).toBe(0);
  });

  it('(the counter works: with KYC_READER_THREADS=0 the same face scan decodes its three frames here)', async () => {
    const u = await user(inline);
    const back = await driveTo(inline, u, 'requires_verification');
    const { session } = await openPage(inline, back.iframe_url!);
    jpegDecodes.mockClear();
    pngReads.mockClear();
    const done = await submitPage(inline, session, { fields: {}, frames: cameraFrames() });
    expect(done.statusCode, done.body).toBe(200);
    expect(jpegDecodes).toHaveBeenCalledTimes(3);
  });
});

describe('images too large are refused from their header, before any decoding', () => {
  // On the inline app, where every decode would be counted.
  const forged = () => Object.entries(forgedImages(inline.ctx.config.kyc.documentLimits));

  it('document uploads (front and back): 422 image_too_large, or 422 document_unreadable without a readable size; nothing changes', async () => {
    const u = await user(inline);
    const refuseAll = async (side: 'front' | 'back') => {
      jpegDecodes.mockClear();
      pngReads.mockClear();
      for (const [name, { bytes, problem }] of forged()) {
        const response = await upload(inline, u, side, bytes.toString('base64'));
        expect(response.json().error?.code, name).toBe(CODES.document[problem]);
        expectError(response, 422, CODES.document[problem]);
      }
      expect(decodesHere()).toBe(0);
    };
    await refuseAll('front');
    expectState(await getState(inline, u), 'awaiting_documents');
    // A document exactly at the limits is read (1350 × 850 = KYC_IMAGE_MAX_PIXELS).
    const front = expectState(await upload(inline, u, 'front', await docs.usFront()), 'awaiting_documents');
    expect(front.extracted?.last_name).toBeDefined();
    await refuseAll('back');
    expectState(await getState(inline, u), 'awaiting_documents');
  });

  it('face-scan frames: 422 image_too_large, or 422 face_scan_failed without a readable size; nothing changes', async () => {
    const u = await user(inline);
    const back = await driveTo(inline, u, 'requires_verification');
    const { session } = await openPage(inline, back.iframe_url!);
    const [first, , last] = cameraFrames();
    jpegDecodes.mockClear();
    pngReads.mockClear();
    for (const [name, { bytes, problem }] of Object.entries(
      forgedImages(inline.ctx.config.kyc.frameLimits),
    )) {
      // The forged frame in the middle of two good ones: every frame is checked.
      const response = await submitPage(inline, session, {
        fields: {},
        frames: [first, bytes.toString('base64'), last],
      });
      expect(response.json().error?.code, name).toBe(CODES.frame[problem]);
      expectError(response, 422, CODES.frame[problem]);
    }
    // A PNG of an acceptable size is no camera frame either.
    const png = smallPng(200, 150).toString('base64');
    expectError(
      await submitPage(inline, session, { fields: {}, frames: [first, png, last] }),
      422,
      'face_scan_failed',
    );
    expect(decodesHere()).toBe(0);
    expectState(await getState(inline, u), 'requires_verification');
  });
});

describe('the face-scan budget of a page session', () => {
  it(`allows ${FACE_SCAN_BUDGET} checks per window, then 429 rate_limited with Retry-After; other sessions are not affected`, async () => {
    const t = pooled;
    const [a, b] = [await user(t), await user(t)];
    const pageA = await openPage(t, (await driveTo(t, a, 'requires_verification')).iframe_url!);
    const pageB = await openPage(t, (await driveTo(t, b, 'requires_verification')).iframe_url!);
    // Start at the beginning of a window (KYC_FACE_SCAN_RATE_WINDOW_SECONDS, 60 by default).
    t.clock.advance(60_000 - (t.clock.now() % 60_000));

    // Failed scans count too: each one was checked.
    for (let i = 0; i < FACE_SCAN_BUDGET; i++)
      expectError(await submitPage(t, pageA.session, { fields: {}, frames: [] }), 422, 'face_scan_failed');
    jpegDecodes.mockClear();
    const refused = await submitPage(t, pageA.session, { fields: {}, frames: cameraFrames() });
    expectError(refused, 429, 'rate_limited');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(jpegDecodes).not.toHaveBeenCalled();

    // Opening the page again in the same browser (a new session of the same verification) does not
    // reset the budget.
    const stateA = expectState(await getState(t, a), 'requires_verification');
    const reopened = await openPage(t, stateA.iframe_url!, { cookie: pageA.cookie });
    const again = await submitPage(t, reopened.session, { fields: {}, frames: cameraFrames() });
    expectError(again, 429, 'rate_limited');

    // Another verification's page is not affected.
    const doneB = await submitPage(t, pageB.session, { fields: {}, frames: cameraFrames() });
    expect(doneB.statusCode, doneB.body).toBe(200);

    // Once Retry-After has passed, the scan goes through.
    t.clock.advance(Number(again.headers['retry-after']) * 1000);
    const doneA = await submitPage(t, reopened.session, { fields: {}, frames: cameraFrames() });
    expect(doneA.statusCode, doneA.body).toBe(200);
    expectState(await getState(t, a), 'pending');
  });

  it('a submit that checks no face scan is not counted', async () => {
    const t = pooled;
    const u = await user(t);
    const needs = await driveTo(t, u, 'needs_information');
    const { session } = await openPage(t, needs.iframe_url!);
    // Refused before the scan (a field it did not ask for): no budget spent.
    for (let i = 0; i < FACE_SCAN_BUDGET + 2; i++)
      expectError(
        await submitPage(t, session, { fields: { nickname: 'x' }, frames: cameraFrames() }),
        400,
        'invalid_request',
      );
    expectError(await submitPage(t, session, { fields: {}, frames: [] }), 422, 'face_scan_failed');
  });
});

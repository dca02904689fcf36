/**
 * Large uploads (a document photo, a face scan) are parsed and their photos decoded off the API's
 * thread (docs/kyc-reader.md, "Threads"); small bodies are parsed on it. Either way the answers are
 * the same: these tests send each refusal once small and once large.
 */
import { randomBytes } from 'node:crypto';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import {
  docs,
  driveTo,
  expectError,
  expectState,
  type KycUser,
  newUser,
  openPage,
  submitPage,
  upload,
  useKycApp,
} from './helpers.ts';

const f = useKycApp();

/** Base64 text that takes a body past the size from which it is parsed off the API's thread. */
const LARGE = 'A'.repeat(200_000);

function post(u: KycUser, payload: string, headers: Record<string, string> = {}) {
  return f.t.request({
    method: 'POST',
    url: '/api/v2/kyc/documents/front',
    headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json', ...headers },
    payload,
  });
}

const answer = (response: { statusCode: number; json(): unknown }) => ({
  status: response.statusCode,
  body: response.json(),
});

describe('uploads read off the API thread answer as those parsed on it', () => {
  it('a body that is not JSON, or that has a prototype key: the same 400', async () => {
    const u = await newUser(f.t, f.sandbox);
    const start = `{"user_id": "${u.userId}", "document_type": "drivers_license", "issuing_country": "US"`;
    for (const [small, large] of [
      [`${start}, "image": "AAAA"`, `${start}, "image": "${LARGE}"`],
      [
        `${start}, "image": "AAAA", "__proto__": {"x": 1}}`,
        `${start}, "image": "${LARGE}", "__proto__": {"x": 1}}`,
      ],
    ] as const) {
      const refused = answer(await post(u, small));
      expect(refused.status).toBe(400);
      expect(answer(await post(u, large))).toEqual(refused);
    }
  });

  it('a photo that is not base64, or holds a NUL: the same 400 naming the image', async () => {
    const u = await newUser(f.t, f.sandbox);
    for (const [small, large] of [
      ['%%%not base64%%%', `%${LARGE}`],
      ['AAAA\u0000', `${LARGE}\u0000`],
    ]) {
      const refused = answer(await upload(f.t, u, 'front', small!));
      expect(refused.body).toMatchObject({
        error: { code: 'invalid_request', field_errors: { image: expect.any(String) } },
      });
      expect(answer(await upload(f.t, u, 'front', large!))).toEqual(refused);
    }
  });

  it('a photo with a data: prefix and line breaks reads as the same photo', async () => {
    const plain = await docs.usFront();
    const wrapped = `data:image/png;base64,${plain.replace(/.{76}/g, '$&\n')}`;
    const read = async (image: string) =>
      expectState(await upload(f.t, await newUser(f.t, f.sandbox), 'front', image), 'awaiting_documents');
    const [a, b] = [await read(plain), await read(wrapped)];
    expect(b.extracted).toEqual(a.extracted);
    expect(a.extracted?.last_name).toBeDefined();
  });

  it('with an Idempotency-Key, the same photo again is a replay, another photo under the key is refused', async () => {
    const u = await newUser(f.t, f.sandbox);
    const body = (image: string) =>
      JSON.stringify({
        user_id: u.userId,
        image,
        mime_type: 'image/png',
        document_type: 'drivers_license',
        issuing_country: 'US',
      });
    const key = { 'idempotency-key': `upload-${u.userId}` };
    const first = await post(u, body(await docs.usFront()), key);
    expectState(first, 'awaiting_documents');
    const again = await post(u, body(await docs.usFront()), key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expectError(await post(u, body(await docs.usFrontOther()), key), 422, 'idempotency_key_reused');
  });
});

/** Camera frames large enough to be read off the API's thread (noise compresses badly). */
function largeFrames(): string[] {
  return [0, 1, 2].map(() => {
    const width = 640;
    const height = 480;
    const data = randomBytes(width * height * 4);
    return Buffer.from(jpeg.encode({ data, width, height }, 80).data).toString('base64');
  });
}

describe('face scans read off the API thread', () => {
  it('are checked as any: one still image sent three times is refused, live frames pass', async () => {
    const frames = largeFrames();
    expect(frames.join('').length).toBeGreaterThan(300_000);
    const u = await newUser(f.t, f.sandbox);
    const back = await driveTo(f.t, u, 'requires_verification');
    const { session } = await openPage(f.t, back.iframe_url!);
    const still = await submitPage(f.t, session, { fields: {}, frames: [frames[0], frames[0], frames[0]] });
    expectError(still, 422, 'face_scan_failed');
    expectState(await submitPage(f.t, session, { fields: {}, frames }), 'pending');
  });

  it('a frame longer than the schema allows is refused by validation, as before', async () => {
    const response = await f.t.call('POST', '/kyc/verify/submit', {
      body: { session: 'kys_x', fields: {}, frames: ['A'.repeat(2_000_004)] },
    });
    expect(expectError(response, 400, 'invalid_request').field_errors).toHaveProperty('frames.0');
  });
});

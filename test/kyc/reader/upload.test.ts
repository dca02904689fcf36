import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { photoFields } from '../../../src/domains/kyc/index.ts';
import { documentReader } from '../../../src/domains/kyc/reader/pool.ts';
import {
  base64Bytes,
  PHOTO_STAND_IN,
  readUploadBody,
  type UploadBodyTask,
} from '../../../src/domains/kyc/reader/upload.ts';
import { generateLicenceBack, SAMPLE_US_LICENCE } from '../../../src/domains/kyc/testdocs/index.ts';

const photo = randomBytes(3000);
const text = photo.toString('base64');
const IMAGE = [{ name: 'image', maxLength: Number.POSITIVE_INFINITY }];
const FRAMES = [{ name: 'frames', maxLength: 10_000 }];
const task = (body: unknown, photos = IMAGE, keepText = false): UploadBodyTask => ({
  bytes: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  photos,
  keepText,
});

describe("an upload's body, read off the API's thread", () => {
  it('decodes the photo and leaves a stand-in in its place; everything else as JSON.parse reads it', () => {
    const read = readUploadBody(task({ user_id: 'usr_1', image: text, extra: [1, { a: null }] }));
    expect(read).toEqual({
      ok: true,
      body: { user_id: 'usr_1', image: PHOTO_STAND_IN, extra: [1, { a: null }] },
      photos: { image: photo },
    });
  });

  it('keeps the text beside the bytes when asked (an Idempotency-Key digests the body as sent)', () => {
    expect(readUploadBody(task({ image: text }, IMAGE, true))).toEqual({
      ok: true,
      body: { image: text },
      photos: { image: photo },
    });
  });

  it('decodes each frame of a list, by its index; a frame longer than the schema allows keeps its text', () => {
    const long = randomBytes(9000).toString('base64');
    const read = readUploadBody(task({ session: 's', frames: [text, long, text] }, FRAMES));
    expect(read).toEqual({
      ok: true,
      body: { session: 's', frames: [PHOTO_STAND_IN, long, PHOTO_STAND_IN] },
      photos: { 'frames.0': photo, 'frames.2': photo },
    });
  });

  it('leaves what is not base64 as it came, for the API to refuse as it refuses any', () => {
    for (const image of ['%%%not base64%%%', '', 'A', `${text}\u0000`, 42, null, ['x']]) {
      expect(readUploadBody(task({ image })), JSON.stringify(image)).toEqual({
        ok: true,
        body: { image },
        photos: {},
      });
    }
    // A body that is not an object has no photo fields.
    expect(readUploadBody(task([text]))).toEqual({ ok: true, body: [text], photos: {} });
  });

  it('refuses what the API refuses as JSON: not JSON, or a prototype key', () => {
    for (const body of [
      '{"image": "AAAA"',
      '',
      `{"image": "${text}", "__proto__": {"x": 1}}`,
      '{"constructor": {"prototype": {"x": 1}}}',
    ])
      expect(readUploadBody(task(body)), body).toEqual({ ok: false });
    // A byte-order mark is allowed, as the API's JSON parser allows it.
    expect(readUploadBody(task(`\uFEFF{"image": "${text}"}`))).toMatchObject({ ok: true });
  });

  it('reads base64 as the API always has: a data: prefix, line breaks, the URL-safe alphabet', () => {
    const wrapped = `data:image/jpeg;base64,${text.replace(/.{76}/g, '$&\r\n')}`;
    expect(base64Bytes(wrapped)).toEqual(photo);
    expect(base64Bytes(photo.toString('base64url'))).toEqual(photo);
    expect(base64Bytes('QUJD')).toEqual(Buffer.from('ABC'));
    for (const bad of ['', '   ', 'A', 'QUJD!', 'QU JD==='.replace(/ /g, '')])
      expect(base64Bytes(bad)).toBeNull();
  });
});

describe('photo fields of a route', () => {
  it("take the bounds of each field's schema, a string or a list of strings", () => {
    const body = Type.Object({
      image: Type.String({ minLength: 1, description: 'base64' }),
      frames: Type.Array(Type.String({ maxLength: 500 }), { maxItems: 3 }),
    });
    expect(photoFields(body, ['image', 'frames'])).toEqual([
      { name: 'image', maxLength: Number.POSITIVE_INFINITY },
      { name: 'frames', maxLength: 500 },
    ]);
  });

  it('refuse, at startup, a field whose schema says more than its length: validation sees a stand-in', () => {
    const cases = [
      Type.Object({ image: Type.String({ pattern: '^[A-Z]+$' }) }),
      Type.Object({ image: Type.String({ minLength: 100 }) }),
      Type.Object({ image: Type.Array(Type.String({ format: 'byte' })) }),
      Type.Object({ image: Type.Number() }),
      Type.Object({ other: Type.String() }),
    ];
    for (const body of cases) expect(() => photoFields(body, ['image'])).toThrow(/photo field image/);
  });
});

describe('upload bodies on the reader pool', () => {
  it('are read on a thread of their own, answering exactly what reading here answers, while the image thread is taken', async () => {
    // One image thread and no queue: while a read runs, any other image task is refused as busy.
    const pool = documentReader({ threads: 1, timeoutMs: 60_000, queue: 0 });
    try {
      const image = await generateLicenceBack({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: 10 });
      const input = {
        side: 'back',
        image,
        mimeType: 'image/png',
        documentType: 'drivers_license',
        issuingCountry: 'US',
        now: new Date('2026-03-01T12:00:00Z'),
      } as const;
      const reading = pool.read(input);
      await expect(pool.read(input)).rejects.toThrow(/busy/);
      const tasks = [
        task({ image: image.toString('base64'), user_id: 'u' }),
        task({ frames: [text, 'nope'] }, FRAMES, true),
        task('{not json'),
      ];
      for (const t of tasks) expect(await pool.readUploadBody(t)).toEqual(readUploadBody(t));
      const read = await pool.readUploadBody(tasks[0]!);
      expect(read).toMatchObject({ ok: true, body: { image: PHOTO_STAND_IN }, photos: { image } });
      expect(Buffer.isBuffer((read as { photos: Record<string, Buffer> }).photos.image)).toBe(true);
      expect((await reading).ok).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

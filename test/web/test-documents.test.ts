import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../src/domains/kyc/reader/index.ts';
import { SAMPLE_US_LICENCE } from '../../src/domains/kyc/testdocs/index.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('sandbox test documents', () => {
  it('lists the sample set and serves each document', async () => {
    const index = await t.call('GET', '/sandbox/test-documents');
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/text\/html/);
    for (const file of [
      'us-licence-front.png',
      'us-licence-back.png',
      'ca-licence-back.png',
      'passport.png',
    ]) {
      expect(index.body).toContain(`href="/sandbox/test-documents/${file}"`);
    }
    const missing = await t.call('GET', '/sandbox/test-documents/nothing.png');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
  });

  it('serves a licence back whose barcode the reader decodes', async () => {
    const res = await t.call('GET', '/sandbox/test-documents/us-licence-back.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const image = res.rawPayload;
    expect(image.subarray(1, 4).toString('latin1')).toBe('PNG');
    const read = await readDocument({
      side: 'back',
      image,
      mimeType: 'image/png',
      documentType: 'drivers_license',
      issuingCountry: 'US',
      now: new Date(),
    });
    expect(read.ok).toBe(true);
    if (read.ok) expect(read.extracted.last_name).toBe(SAMPLE_US_LICENCE.lastName.toUpperCase());
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import {
  docs,
  expectError,
  expectState,
  getState,
  type KycUser,
  kycEvents,
  newUser,
  simulate,
  startKycApp,
  upload,
  useKycApp,
} from './helpers.ts';

const f = useKycApp();

describe('GET /api/v2/kyc', () => {
  it('starts at awaiting_documents with an iframe_url and nothing else', async () => {
    const u = await newUser(f.t, f.sandbox);
    const body = expectState(await getState(f.t, u), 'awaiting_documents');
    expect(Object.keys(body).sort()).toEqual(['iframe_url', 'object', 'status']);
    expect(body.iframe_url).toMatch(/^http:\/\/purser\.test\/kyc\/verify\/kyc_/);
  });

  it('returns the same iframe_url while it is valid, a new one once less than a third of its lifetime is left', async () => {
    const u = await newUser(f.t, f.sandbox);
    const a = expectState(await getState(f.t, u), 'awaiting_documents').iframe_url;
    expect(expectState(await getState(f.t, u), 'awaiting_documents').iframe_url).toBe(a);
    f.t.clock.advance(599_000); // 301 s of 900 left
    expect(expectState(await getState(f.t, u), 'awaiting_documents').iframe_url).toBe(a);
    f.t.clock.advance(2_000); // 299 s left: renewed
    const b = expectState(await getState(f.t, u), 'awaiting_documents').iframe_url;
    expect(b).not.toBe(a);
    expect(expectState(await getState(f.t, u), 'awaiting_documents').iframe_url).toBe(b);
  });

  it('answers 404 connection_not_found for a user not connected to the calling client', async () => {
    const u = await newUser(f.t, f.sandbox);
    const other = await f.t.createOrg('Other');
    const otherToken = await f.t.platformToken(other.sandbox);
    expectError(await getState(f.t, { token: otherToken, userId: u.userId }), 404, 'connection_not_found');
    // The same organization's production client does not see the sandbox user either.
    const live = await f.t.platformToken(f.org.production);
    expectError(await getState(f.t, { token: live, userId: u.userId }), 404, 'connection_not_found');
    expectError(
      await getState(f.t, { token: f.sandbox, userId: 'usr_unknown' }),
      404,
      'connection_not_found',
    );
  });

  it('answers 401 without a platform token and 400 without user_id', async () => {
    expectError(await f.t.call('GET', '/api/v2/kyc?user_id=usr_x'), 401, 'unauthorized');
    const res = await f.t.call('GET', '/api/v2/kyc', { token: f.sandbox });
    expect(expectError(res, 400, 'invalid_request').field_errors).toHaveProperty('user_id');
    // An unknown query parameter is refused, as on every list of the API.
    const extra = await f.t.call('GET', '/api/v2/kyc?user_id=usr_x&foo=1', { token: f.sandbox });
    expect(expectError(extra, 400, 'invalid_request').field_errors).toEqual({
      foo: 'is not a recognised field',
    });
  });
});

describe('US driver licence: front, then back (branch point)', () => {
  let u: KycUser;
  beforeAll(async () => {
    u = await newUser(f.t, f.sandbox);
  });

  it('front accepted stays awaiting_documents, with warnings and extracted, and says the back comes next', async () => {
    const body = expectState(await upload(f.t, u, 'front', await docs.usFront()), 'awaiting_documents');
    expect(body.reason).toMatch(/back/);
    // The poll says the same, with the same link.
    const polled = expectState(await getState(f.t, u), 'awaiting_documents');
    expect(polled.reason).toBe(body.reason);
    expect(polled.iframe_url).toBe(body.iframe_url);
    expect(body.warnings).toEqual([]);
    expect(body.extracted).toMatchObject({ document_type: 'drivers_license', issuing_country: 'US' });
    expect(body.extracted).not.toHaveProperty('national_id_number');
    expect(body.iframe_url).toEqual(expect.any(String));
  });

  it('back reads the barcode and asks for the national id number only', async () => {
    const body = expectState(await upload(f.t, u, 'back', await docs.usBack()), 'needs_information');
    expect(body.required_fields).toEqual(['national_id_number']);
    expect(body.extracted).toMatchObject({
      first_name: 'JORDAN',
      last_name: 'SAMPLE',
      date_of_birth: '1990-01-15',
      address_line1: '123 MAIN ST',
      address_city: 'SACRAMENTO',
      address_region: 'CA',
      address_postal_code: '95823',
      address_country: 'US',
      document_number: 'D1234567',
      document_type: 'drivers_license',
      issuing_country: 'US',
    });
    expect(body.extracted).not.toHaveProperty('national_id_number');
    expect(body.reason).toEqual(expect.any(String));
    // What the reader extracted is sealed at rest: no name, address or document number in the row.
    const row = await f.t.ctx.db
      .selectFrom('kyc_verifications')
      .select(['front_extracted', 'back_extracted'])
      .where('user_id', '=', u.userId)
      .executeTakeFirstOrThrow();
    for (const plain of ['SAMPLE', 'SACRAMENTO', 'D1234567', '1990-01-15']) {
      expect(JSON.stringify(row)).not.toContain(plain);
    }
    // The poll reports the same status, without upload-only fields.
    const polled = expectState(await getState(f.t, u), 'needs_information');
    expect(polled.required_fields).toEqual(['national_id_number']);
    expect(polled).not.toHaveProperty('extracted');
    expect(polled).not.toHaveProperty('warnings');
  });
});

describe('other documents at the branch point', () => {
  it('a Canadian licence (JPEG) reads complete and goes to requires_verification', async () => {
    const u = await newUser(f.t, f.sandbox);
    expectState(
      await upload(f.t, u, 'front', await docs.caFront(), { issuing_country: 'CA' }),
      'awaiting_documents',
    );
    const body = expectState(
      await upload(f.t, u, 'back', await docs.caBackJpeg(), {
        issuing_country: 'CA',
        mime_type: 'image/jpeg',
      }),
      'requires_verification',
    );
    expect(body.extracted).toMatchObject({
      last_name: 'TREMBLAY',
      date_of_birth: '1985-11-03',
      address_country: 'CA',
    });
    expect(body.iframe_url).toEqual(expect.any(String));
  });

  it('a US state ID works like a licence', async () => {
    const u = await newUser(f.t, f.sandbox);
    const extra = { document_type: 'state_id' };
    expectState(await upload(f.t, u, 'front', await docs.stateIdFront(), extra), 'awaiting_documents');
    const body = expectState(
      await upload(f.t, u, 'back', await docs.stateIdBack(), extra),
      'needs_information',
    );
    expect(body.extracted?.document_number).toBe('S1112223');
  });

  it('a passport data page, uploaded as the front, is the branch point', async () => {
    const u = await newUser(f.t, f.sandbox);
    const body = expectState(
      await upload(f.t, u, 'front', await docs.passport(), { document_type: 'passport' }),
      'needs_information',
    );
    expect(body.extracted).toMatchObject({
      last_name: 'SAMPLE',
      first_name: 'JORDAN LEE',
      document_number: 'X12345678',
    });
    expect(body.required_fields).toEqual([
      'address_line1',
      'address_city',
      'address_region',
      'address_postal_code',
      'address_country',
      'national_id_number',
    ]);
  });

  it('a passport has no back: 400', async () => {
    const u = await newUser(f.t, f.sandbox);
    const res = await upload(f.t, u, 'back', await docs.passport(), { document_type: 'passport' });
    expect(expectError(res, 400, 'invalid_request').field_errors).toHaveProperty('document_type');
  });

  it('an under-age holder is rejected at the branch point, with a user-safe reason', async () => {
    const u = await newUser(f.t, f.sandbox);
    await upload(f.t, u, 'front', await docs.usFrontMinor());
    const body = expectState(await upload(f.t, u, 'back', await docs.usBackMinor()), 'rejected');
    expect(body.reason).toMatch(/18/);
    expect(body).not.toHaveProperty('iframe_url');
  });
});

describe('document errors', () => {
  it('422 document_expired for an expired licence, state unchanged', async () => {
    const u = await newUser(f.t, f.sandbox);
    await upload(f.t, u, 'front', await docs.usFront());
    const error = expectError(
      await upload(f.t, u, 'back', await docs.usBackExpired()),
      422,
      'document_expired',
    );
    expect(error.message).toMatch(/expired/i);
    expectState(await getState(f.t, u), 'awaiting_documents');
  });

  it('422 specimen_document for the sandbox sample set with a live credential; the sandbox accepts it', async () => {
    const sample = async (file: string) =>
      (await f.t.call('GET', `/sandbox/test-documents/${file}`)).rawPayload.toString('base64');
    const passport = await sample('passport.png');
    const live = await newUser(f.t, await f.t.platformToken(f.org.production), { production: true });
    const refusals = [
      await upload(f.t, live, 'front', passport, { document_type: 'passport' }),
      await upload(f.t, live, 'front', await sample('us-licence-front.png')),
    ];
    for (const res of refusals) {
      const error = expectError(res, 422, 'specimen_document');
      expect(error.message).toBe(
        'This is a sample document for sandbox testing, not an identity document. Upload a photo of your own document.',
      );
    }
    expectState(await getState(f.t, live), 'awaiting_documents');

    const sandbox = await newUser(f.t, f.sandbox);
    const accepted = await upload(f.t, sandbox, 'front', passport, { document_type: 'passport' });
    expect(expectState(accepted, 'needs_information').extracted).toMatchObject({
      document_number: 'X12345678',
    });
  });

  it('422 document_unreadable for an image with no document, with the reason as message', async () => {
    const u = await newUser(f.t, f.sandbox);
    const error = expectError(
      await upload(f.t, u, 'front', await docs.blank(), { mime_type: 'image/jpeg' }),
      422,
      'document_unreadable',
    );
    expect(error.message.length).toBeGreaterThan(10);
    // What to fix in the photo comes with the refusal, as with an accepted upload.
    expect(error.warnings.length).toBeGreaterThan(0);
  });

  it('422 document_unreadable when the back has no barcode', async () => {
    const u = await newUser(f.t, f.sandbox);
    await upload(f.t, u, 'front', await docs.usFront());
    expectError(await upload(f.t, u, 'back', await docs.usFront()), 422, 'document_unreadable');
  });

  it('400 for bad base64, bytes that are not an image, an unknown field, a bad mime type or country', async () => {
    const u = await newUser(f.t, f.sandbox);
    const cases: [Record<string, unknown>, string][] = [
      [{ image: '%%%not base64%%%' }, 'image'],
      [{ image: Buffer.from('GIF89a................').toString('base64') }, 'image'],
      [{ colour: 'red' }, 'colour'],
      [{ mime_type: 'image/gif' }, 'mime_type'],
      [{ issuing_country: 'us' }, 'issuing_country'],
      [{ issuing_country: 'XX' }, 'issuing_country'],
      [{ document_type: 'library_card' }, 'document_type'],
    ];
    for (const [extra, field] of cases) {
      const res = await upload(f.t, u, 'front', (extra.image as string) ?? (await docs.usFront()), extra);
      expect(expectError(res, 400, 'invalid_request').field_errors, JSON.stringify(extra)).toHaveProperty(
        field,
      );
    }
  });

  it('409 invalid_kyc_state for a back before the front', async () => {
    const u = await newUser(f.t, f.sandbox);
    expectError(await upload(f.t, u, 'back', await docs.usBack()), 409, 'invalid_kyc_state');
  });

  it('422 document_mismatch when the back names another document type or country than the front', async () => {
    const u = await newUser(f.t, f.sandbox);
    await upload(f.t, u, 'front', await docs.usFront());
    const res = await upload(f.t, u, 'back', await docs.usBack(), {
      document_type: 'state_id',
      issuing_country: 'CA',
    });
    const error = expectError(res, 422, 'document_mismatch');
    expect(Object.keys(error.field_errors).sort()).toEqual(['document_type', 'issuing_country']);
  });

  it('409 user_conflict when the document is already verified for another user of the organization', async () => {
    const first = await newUser(f.t, f.sandbox);
    await upload(f.t, first, 'front', await docs.usFrontOther());
    await upload(f.t, first, 'back', await docs.usBackOther());
    expectState(await simulate(f.t, first, 'approved'), 'approved');

    // The front already names the document; the back does as well.
    const second = await newUser(f.t, f.sandbox);
    expectError(await upload(f.t, second, 'front', await docs.usFrontOther()), 409, 'user_conflict');
    expectState(await getState(f.t, second), 'awaiting_documents');
    await upload(f.t, second, 'front', await docs.usFront());
    expectError(await upload(f.t, second, 'back', await docs.usBackOther()), 422, 'document_mismatch');

    // Another organization may verify the same document.
    const other = await f.t.createOrg('Elsewhere');
    const elsewhere = await newUser(f.t, await f.t.platformToken(other.sandbox));
    await upload(f.t, elsewhere, 'front', await docs.usFrontOther());
    expectState(await upload(f.t, elsewhere, 'back', await docs.usBackOther()), 'needs_information');
  });

  it('409 invalid_kyc_state for uploads once approved, rejected or pending', async () => {
    const u = await newUser(f.t, f.sandbox);
    expectState(await simulate(f.t, u, 'approved'), 'approved');
    expectError(await upload(f.t, u, 'front', await docs.usFront()), 409, 'invalid_kyc_state');
    expectState(await simulate(f.t, u, 'rejected'), 'rejected');
    expectError(await upload(f.t, u, 'front', await docs.usFront()), 409, 'invalid_kyc_state');
  });

  it('413 payload_too_large over the upload limit; images over the global JSON limit are accepted', async () => {
    const small = await startKycApp({ KYC_UPLOAD_LIMIT_BYTES: String(1024 * 1024) });
    try {
      const o = await small.createOrg();
      const u = await newUser(small, await small.platformToken(o.sandbox));
      const big = Buffer.alloc(900 * 1024, 1).toString('base64');
      expectError(await upload(small, u, 'front', big), 413, 'payload_too_large');
    } finally {
      await small.close();
    }
    // The global JSON limit is 1 MiB; the upload routes take more (here 1.5 MiB of base64).
    const u = await newUser(f.t, f.sandbox);
    const large = Buffer.alloc(1100 * 1024, 7).toString('base64');
    expectError(await upload(f.t, u, 'front', large), 422, 'document_unreadable');
  });

  it('502 verification_error when the reader does not answer in time; nothing changes, the cause is logged', async () => {
    // No read of a real image finishes within 1 ms: every read is cut short.
    const slow = await startKycApp({ KYC_READER_TIMEOUT_MS: '1' });
    try {
      const o = await slow.createOrg();
      const u = await newUser(slow, await slow.platformToken(o.sandbox));
      const response = await upload(slow, u, 'front', await docs.usFront());
      expect(expectError(response, 502, 'verification_error').message).not.toMatch(/thread/);
      expect(Object.keys(expectState(await getState(slow, u), 'awaiting_documents')).sort()).toEqual([
        'iframe_url',
        'object',
        'status',
      ]);
      expect(await kycEvents(slow, u)).toEqual([]);
      expect(slow.logs.text).toMatch(/document reader thread ended/);
    } finally {
      await slow.close();
    }
  });
});

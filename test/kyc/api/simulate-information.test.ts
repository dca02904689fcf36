import { describe, expect, it } from 'vitest';
import {
  docs,
  driveTo,
  expectError,
  expectState,
  getState,
  information,
  kycEvents,
  newUser,
  review,
  simulate,
  upload,
  useKycApp,
  verificationId,
} from './helpers.ts';

// Tests move the clock by minutes or days: fresh platform tokens for each.
const f = useKycApp({ each: 'tokens' });

describe('POST /api/v2/kyc/simulate', () => {
  it('answers 403 sandbox_only for a live token', async () => {
    const live = await f.t.platformToken(f.org.production);
    const u = await newUser(f.t, live, { production: true });
    expectError(await simulate(f.t, u, 'approved'), 403, 'sandbox_only');
    // Before its body is read: a body that would be refused gets the same answer.
    for (const body of [{}, { user_id: u.userId, outcome: 'maybe' }])
      expectError(await f.t.call('POST', '/api/v2/kyc/simulate', { token: live, body }), 403, 'sandbox_only');
    expectState(await getState(f.t, u), 'awaiting_documents');
  });

  it('takes a reason up to 300 characters; 301 is 400 invalid_request', async () => {
    const u = await newUser(f.t, f.sandbox);
    const ok = expectState(await simulate(f.t, u, 'rejected', 'x'.repeat(300)), 'rejected');
    expect(ok.reason).toBe('x'.repeat(300));
    const res = await simulate(f.t, u, 'rejected', 'x'.repeat(301));
    expect(expectError(res, 400, 'invalid_request').field_errors).toHaveProperty('reason');
  });

  it('answers 400 invalid_reason when the reason names internal providers, identifiers or addresses', async () => {
    const u = await newUser(f.t, f.sandbox);
    for (const reason of [
      `User ${u.userId} failed`,
      'Rejected for org_8d7f6e5d4c3b2a10',
      'see evt_abcdef123456',
      'Onfido flagged the selfie',
      'Jumio: document tampered',
      'Details at https://example.com/case/1',
      'Write to ops@example.com',
      'key sk_test_abcdef12345',
      'Held: txn_0Vc609OVNYU8TcwrlXrCEeuDqsjbEn',
      'cardholder ch_0Vc609OVNYU8TcwrlXrCEeuDqsjbEn',
      'order ord_0Vc609OVNYU8TcwrlXrCE',
      'Ｊｕｍｉｏ flagged it',
      'Sum-sub check failed',
      '\u001b[31mred\u0007',
    ]) {
      const error = expectError(await simulate(f.t, u, 'rejected', reason), 400, 'invalid_reason');
      expect(error.message).not.toContain(reason);
    }
    expectState(await getState(f.t, u), 'awaiting_documents');
    expect(await kycEvents(f.t, u)).toEqual([]);
    // Plain words and line breaks are still a reason.
    const ok = expectState(
      await simulate(f.t, u, 'rejected', 'The photo is blurry.\nPlease retake it in good light.'),
      'rejected',
    );
    expect(ok.reason).toBe('The photo is blurry.\nPlease retake it in good light.');
  });

  it('answers the new state exactly as the read reports it, and the event carries the reason', async () => {
    const u = await newUser(f.t, f.sandbox);
    const simulated = expectState(
      await simulate(f.t, u, 'rejected', 'The document looks altered.'),
      'rejected',
    );
    const read = expectState(await getState(f.t, u), 'rejected');
    expect(simulated).toEqual(read);
    expect(simulated.reason).toBe('The document looks altered.');
    const [event] = await kycEvents(f.t, u);
    expect(event).toMatchObject({
      type: 'identity.verification.updated',
      livemode: false,
      data: {
        user_id: u.userId,
        status: 'rejected',
        reason: 'The document looks altered.',
        required_fields: null,
      },
    });
  });

  it('requires_input bounces to awaiting_documents and asks for new photos of both sides', async () => {
    const u = await newUser(f.t, f.sandbox);
    await driveTo(f.t, u, 'requires_verification');
    const body = expectState(await simulate(f.t, u, 'requires_input'), 'awaiting_documents');
    expect(body.reason).toMatch(/photos/);
    expect(body.iframe_url).toEqual(expect.any(String));
    // The earlier front no longer counts: the back alone is refused.
    expectError(
      await upload(f.t, u, 'back', await docs.personCaBackJpeg(), { issuing_country: 'CA' }),
      409,
      'invalid_kyc_state',
    );
    await driveTo(f.t, u, 'requires_verification');
  });

  it('re-simulating overwrites, and approved carries no reason', async () => {
    const u = await newUser(f.t, f.sandbox);
    expectState(await simulate(f.t, u, 'rejected', 'No.'), 'rejected');
    const approved = expectState(await simulate(f.t, u, 'approved', 'ignored on approved'), 'approved');
    expect(approved).toEqual({ object: 'kyc', status: 'approved' });
    expect((await kycEvents(f.t, u)).map((e) => e.data.status)).toEqual(['rejected', 'approved']);
    expect((await kycEvents(f.t, u))[1]?.data.reason).toBeNull();
  });

  it('400 for an unknown outcome; 404 for a user not connected', async () => {
    const u = await newUser(f.t, f.sandbox);
    expect(expectError(await simulate(f.t, u, 'maybe'), 400, 'invalid_request').field_errors).toHaveProperty(
      'outcome',
    );
    expectError(
      await simulate(f.t, { token: f.sandbox, userId: 'usr_nobody' }, 'approved'),
      404,
      'connection_not_found',
    );
  });

  it('sandbox verifications never complete by themselves', async () => {
    const u = await newUser(f.t, f.sandbox);
    await driveTo(f.t, u, 'pending');
    f.t.clock.advance(7 * 24 * 3600 * 1000);
    expectState(await getState(f.t, { ...u, token: await f.t.platformToken(f.org.sandbox) }), 'pending');
    expect((await review(f.t, await verificationId(f.t, u), 'approve')).statusCode).toBe(409);
  });
});

describe('POST /api/v2/kyc/information', () => {
  it('takes exactly the requested fields: unrequested, unknown and missing fields are 400 with field_errors', async () => {
    const u = await newUser(f.t, f.sandbox);
    await driveTo(f.t, u, 'needs_information');
    let error = expectError(
      await information(f.t, u, { national_id_number: '123-45-6789', first_name: 'Jo' }),
      400,
      'invalid_request',
    );
    expect(error.field_errors).toEqual({ first_name: 'was not requested' });
    error = expectError(await information(f.t, u, {}), 400, 'invalid_request');
    expect(error.field_errors).toEqual({ national_id_number: 'is required' });
    error = expectError(
      await information(f.t, u, { national_id_number: '123456789', shoe_size: '9' }),
      400,
      'invalid_request',
    );
    expect(error.field_errors).toHaveProperty('shoe_size');
    for (const bad of ['12345', '000-12-3456', '666-12-3456', 'abc-de-fghi']) {
      error = expectError(await information(f.t, u, { national_id_number: bad }), 400, 'invalid_request');
      expect(error.field_errors).toHaveProperty('national_id_number');
    }
    expectState(await getState(f.t, u), 'needs_information');
  });

  it('moves to requires_verification and never stores the national id number', async () => {
    const u = await newUser(f.t, f.sandbox);
    await driveTo(f.t, u, 'needs_information');
    const body = expectState(
      await information(f.t, u, { national_id_number: '123-45-6789' }),
      'requires_verification',
    );
    expect(body.iframe_url).toEqual(expect.any(String));
    const rows = await f.t.ctx.db.selectFrom('kyc_verifications').selectAll().execute();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain('123456789');
    expect(dump).not.toContain('123-45-6789');
  });

  it('checks address formats for a passport holder (country, postal code, dates)', async () => {
    const u = await newUser(f.t, f.sandbox);
    expectState(
      await upload(f.t, u, 'front', await docs.passport(), { document_type: 'passport' }),
      'needs_information',
    );
    const good = {
      address_line1: '1 Infinite Loop',
      address_city: 'Cupertino',
      address_region: 'CA',
      address_postal_code: '95014',
      address_country: 'US',
      national_id_number: '123456789',
    };
    let error = expectError(
      await information(f.t, u, { ...good, address_country: 'USA' }),
      400,
      'invalid_request',
    );
    expect(Object.keys(error.field_errors)).toEqual(['address_country']);
    error = expectError(
      await information(f.t, u, { ...good, address_postal_code: 'ABCDE' }),
      400,
      'invalid_request',
    );
    expect(Object.keys(error.field_errors)).toEqual(['address_postal_code']);
    error = expectError(await information(f.t, u, { ...good, address_city: '   ' }), 400, 'invalid_request');
    expect(error.field_errors).toEqual({ address_city: 'must not be empty' });
    error = expectError(
      await information(f.t, u, {
        ...good,
        address_city: 'Cuper\u0007tino',
        address_line1: '1 Loop\u001b[2J',
      }),
      400,
      'invalid_request',
    );
    expect(error.field_errors).toEqual({
      address_city: 'must not contain control characters',
      address_line1: 'must not contain control characters',
    });
    expectState(await information(f.t, u, good), 'requires_verification');
  });

  it('checks phone numbers (E.164) and dates of birth when a review asks for them', async () => {
    const o = await f.t.createOrg('Phones');
    const u = await newUser(f.t, await f.t.platformToken(o.production), { production: true });
    await driveTo(f.t, u, 'pending');
    const res = await review(f.t, await verificationId(f.t, u), 'request_information', {
      fields: ['phone_number', 'date_of_birth'],
      reason: 'Please confirm your phone number and date of birth.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const error = expectError(
      await information(f.t, u, { phone_number: '4155550123', date_of_birth: '1990-02-30' }),
      400,
      'invalid_request',
    );
    expect(Object.keys(error.field_errors).sort()).toEqual(['date_of_birth', 'phone_number']);
    expectError(
      await information(f.t, u, { phone_number: '+14155550123', date_of_birth: '2999-01-01' }),
      400,
      'invalid_request',
    );
    expectState(
      await information(f.t, u, { phone_number: '+14155550123', date_of_birth: '1985-11-03' }),
      'pending',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { backMismatches } from '../../../src/domains/kyc/document-match.ts';
import {
  generateLicenceBack,
  generatePassportPage,
  SAMPLE_PASSPORT,
  SAMPLE_US_LICENCE,
} from '../../../src/domains/kyc/testdocs/index.ts';
import {
  docs,
  expectError,
  expectState,
  getState,
  type KycUser,
  kycEvents,
  newUser,
  upload,
  useKycApp,
} from './helpers.ts';

const f = useKycApp();

/** A back of the sample US licence with some of its printed facts changed. */
async function usBackWith(changes: Partial<typeof SAMPLE_US_LICENCE>): Promise<string> {
  const back = await generateLicenceBack({
    ...SAMPLE_US_LICENCE,
    ...changes,
    country: 'US',
    aamvaVersion: 10,
  });
  return back.toString('base64');
}

async function row(u: KycUser) {
  return f.t.ctx.db
    .selectFrom('kyc_verifications')
    .selectAll()
    .where('user_id', '=', u.userId)
    .executeTakeFirstOrThrow();
}

describe('the back must belong to the document of the front', () => {
  const cases: [string, () => Promise<string>, Record<string, unknown>, string[]][] = [
    [
      "a Canadian licence's back (another person) declared as the US front's",
      docs.caBackJpeg,
      { mime_type: 'image/jpeg' },
      ['date_of_birth', 'document_number', 'first_name', 'issuing_country', 'last_name'],
    ],
    ['another document number', docs.usBackOther, {}, ['document_number']],
    ['another last name', () => usBackWith({ lastName: 'Other' }), {}, ['last_name']],
    ['another first name', () => usBackWith({ firstName: 'Casey' }), {}, ['first_name']],
    ['another date of birth', () => usBackWith({ dateOfBirth: '1991-01-15' }), {}, ['date_of_birth']],
    ['another document type declared', docs.usBack, { document_type: 'state_id' }, ['document_type']],
    ['another country declared', docs.usBack, { issuing_country: 'CA' }, ['issuing_country']],
    ['a passport as the back of a licence', docs.passport, { document_type: 'passport' }, ['document_type']],
  ];
  for (const [name, image, extra, fields] of cases) {
    it(`${name}: 422 document_mismatch naming ${fields.join(', ')}; nothing changes`, async () => {
      const u = await newUser(f.t, f.sandbox);
      const front = expectState(await upload(f.t, u, 'front', await docs.usFront()), 'awaiting_documents');
      const before = await row(u);
      const events = (await kycEvents(f.t, u)).length;

      const error = expectError(await upload(f.t, u, 'back', await image(), extra), 422, 'document_mismatch');
      expect(Object.keys(error.field_errors).sort()).toEqual(fields);
      expect(error.message).toMatch(/same document/);

      // Nothing changed: the row, the state, the events.
      const after = await row(u);
      expect(after).toEqual(before);
      expect(after.back_extracted).toBeNull();
      expect(after.document_key).toBeNull();
      const polled = expectState(await getState(f.t, u), 'awaiting_documents');
      expect(polled.reason).toBe(front.reason);
      expect(await kycEvents(f.t, u)).toHaveLength(events);

      // The right back is still accepted, and the front (a US licence) decides the requirements.
      const body = expectState(await upload(f.t, u, 'back', await docs.usBack()), 'needs_information');
      expect(body.required_fields).toEqual(['national_id_number']);
    });
  }

  it('a US back after a Canadian front is refused: the national id requirement cannot be skipped or added', async () => {
    const u = await newUser(f.t, f.sandbox);
    await upload(f.t, u, 'front', await docs.caFront(), { issuing_country: 'CA' });
    const error = expectError(
      await upload(f.t, u, 'back', await docs.usBack(), { issuing_country: 'CA' }),
      422,
      'document_mismatch',
    );
    expect(error.field_errors).toHaveProperty('issuing_country');
    expect(error.field_errors).toHaveProperty('document_number');
    expectState(await getState(f.t, u), 'awaiting_documents');
  });

  it('a passport page is not a back, even with no front (400)', async () => {
    const u = await newUser(f.t, f.sandbox);
    const page = generatePassportPage(SAMPLE_PASSPORT).toString('base64');
    const res = await upload(f.t, u, 'back', page, { document_type: 'passport' });
    expect(expectError(res, 400, 'invalid_request').field_errors).toHaveProperty('document_type');
  });
});

describe('backMismatches (what counts as the same document)', () => {
  const front = {
    issuing_country: 'US',
    document_type: 'drivers_license',
    document_number: 'D123-4567',
    first_name: 'Jordan Lee',
    last_name: 'Sample',
    date_of_birth: '1990-01-15',
  } as const;

  it('tolerates spacing, hyphens, case, accents and a middle name one side omits', () => {
    expect(
      backMismatches(front, {
        issuing_country: 'us',
        document_number: 'd 1234567',
        first_name: 'JORDAN',
        last_name: 'SÁMPLE',
        date_of_birth: '1990-01-15',
      }),
    ).toEqual({});
  });

  it('compares only what both sides carry', () => {
    expect(backMismatches(front, {})).toEqual({});
    expect(backMismatches({}, { document_number: 'X1' })).toEqual({});
  });

  it('refuses a different given name, even one that begins the same way', () => {
    expect(backMismatches(front, { first_name: 'Jordana' })).toEqual({
      first_name: 'does not match the front',
    });
    expect(backMismatches(front, { first_name: 'Lee' })).toHaveProperty('first_name');
    expect(backMismatches(front, { last_name: '' })).toHaveProperty('last_name');
  });
});

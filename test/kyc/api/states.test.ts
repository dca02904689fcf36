import { describe, expect, it } from 'vitest';
import {
  KYC_STATUSES,
  KYC_TRANSITIONS,
  type KycStatus,
  type KycTransition,
  nextStatus,
} from '../../../src/domains/kyc/states.ts';
import { generatePassportPage, SAMPLE_PASSPORT } from '../../../src/domains/kyc/testdocs/index.ts';
import {
  cameraFrames,
  docs,
  driveTo,
  expectError,
  expectState,
  getState,
  information,
  type KycUser,
  kycEvents,
  newUser,
  openPage,
  review,
  simulate,
  submitPage,
  upload,
  useKycApp,
  verificationId,
} from './helpers.ts';

const f = useKycApp();

const minorPassport = () => {
  const year = new Date().getUTCFullYear() - 16;
  return generatePassportPage({
    ...SAMPLE_PASSPORT,
    dateOfBirth: `${year}-01-15`,
  }).toString('base64');
};

describe('the transition table', () => {
  it.each(KYC_TRANSITIONS.map((row) => [`${row.from} --${row.move}/${row.when}--> ${row.to}`, row] as const))(
    '%s',
    (_name, row: KycTransition) => {
      const froms: readonly KycStatus[] = row.from === 'any' ? KYC_STATUSES : [row.from];
      for (const from of froms) expect(nextStatus(from, row.move, row.when)).toBe(row.to);
    },
  );

  it('has no row for moves the spec and the decisions do not allow', () => {
    expect(nextStatus('pending', 'front_accepted', 'accepted')).toBeNull();
    expect(nextStatus('approved', 'back_accepted', 'complete')).toBeNull();
    expect(nextStatus('rejected', 'passport_page_accepted', 'fields_missing')).toBeNull();
    expect(nextStatus('requires_verification', 'information_submitted', 'face_scan_pending')).toBeNull();
    expect(nextStatus('needs_information', 'verification_completed', 'complete')).toBeNull();
    expect(nextStatus('requires_verification', 'review_result', 'approved')).toBeNull();
    expect(nextStatus('awaiting_documents', 'passport_page_accepted', 'complete')).toBeNull();
  });
});

/** Each row of the table, driven through the HTTP interface. */
type Setup = (u: KycUser) => Promise<unknown>;
const at: Record<string, Setup> = {
  awaiting_documents: async () => {},
  needs_information: (u) => driveTo(f.t, u, 'needs_information'),
  requires_verification: (u) => driveTo(f.t, u, 'requires_verification'),
  pending: (u) => driveTo(f.t, u, 'pending'),
  approved: async (u) => expectState(await simulate(f.t, u, 'approved'), 'approved'),
  rejected: async (u) => expectState(await simulate(f.t, u, 'rejected'), 'rejected'),
};

async function expectEvent(u: KycUser, before: number, status: string) {
  const events = await kycEvents(f.t, u);
  expect(events.length).toBe(before + 1);
  expect(events.at(-1)?.data).toEqual({
    user_id: u.userId,
    status,
    reason: expect.toBeOneOf([null, expect.any(String)]),
    required_fields: status === 'needs_information' ? expect.any(Array) : null,
  });
}

describe('every row through the API', () => {
  const front = (from: string) => async () => {
    const u = await newUser(f.t, f.sandbox);
    await at[from]!(u);
    const before = (await kycEvents(f.t, u)).length;
    const answered = expectState(await upload(f.t, u, 'front', await docs.usFront()), 'awaiting_documents');
    expect(answered.reason).toMatch(/back/);
    if (from !== 'awaiting_documents') {
      await expectEvent(u, before, 'awaiting_documents');
      // The event reports what the state does: the next step, the licence's back.
      expect((await kycEvents(f.t, u)).at(-1)?.data.reason).toBe(answered.reason);
    } else expect((await kycEvents(f.t, u)).length).toBe(before);
  };
  it(
    'awaiting_documents --front--> awaiting_documents (no event: no status change)',
    front('awaiting_documents'),
  );
  it('needs_information --front--> awaiting_documents (restart)', front('needs_information'));
  it('requires_verification --front--> awaiting_documents (restart)', front('requires_verification'));

  it('awaiting_documents --back (fields missing)--> needs_information', async () => {
    const u = await newUser(f.t, f.sandbox);
    await upload(f.t, u, 'front', await docs.usFront());
    expectState(await upload(f.t, u, 'back', await docs.usBack()), 'needs_information');
    await expectEvent(u, 0, 'needs_information');
  });
  it('awaiting_documents --back (complete)--> requires_verification', async () => {
    const u = await newUser(f.t, f.sandbox);
    await driveTo(f.t, u, 'requires_verification');
    await expectEvent(u, 0, 'requires_verification');
  });
  it('awaiting_documents --back (not verifiable)--> rejected', async () => {
    const u = await newUser(f.t, f.sandbox);
    await upload(f.t, u, 'front', await docs.usFrontMinor());
    expectState(await upload(f.t, u, 'back', await docs.usBackMinor()), 'rejected');
    await expectEvent(u, 0, 'rejected');
  });

  for (const from of ['awaiting_documents', 'needs_information', 'requires_verification']) {
    it(`${from} --passport page (fields missing)--> needs_information`, async () => {
      const u = await newUser(f.t, f.sandbox);
      await at[from]!(u);
      const before = (await kycEvents(f.t, u)).length;
      const body = expectState(
        await upload(f.t, u, 'front', await docs.passport(), { document_type: 'passport' }),
        'needs_information',
      );
      expect(body.required_fields).toContain('address_line1');
      await expectEvent(u, before, 'needs_information');
    });
    it(`${from} --passport page (not verifiable)--> rejected`, async () => {
      const u = await newUser(f.t, f.sandbox);
      await at[from]!(u);
      expectState(await upload(f.t, u, 'front', minorPassport(), { document_type: 'passport' }), 'rejected');
    });
  }

  it('needs_information --information (face scan pending)--> requires_verification', async () => {
    const u = await newUser(f.t, f.sandbox);
    await driveTo(f.t, u, 'needs_information');
    expectState(await information(f.t, u, { national_id_number: '123-45-6789' }), 'requires_verification');
    await expectEvent(u, 1, 'requires_verification');
  });

  it('requires_verification --hosted page completed--> pending', async () => {
    const u = await newUser(f.t, f.sandbox);
    await driveTo(f.t, u, 'pending');
    await expectEvent(u, 1, 'pending');
  });

  describe('review results from pending (production)', () => {
    // Each in its own organization: an approved document would conflict with the next user's.
    const pendingLive = async () => {
      const o = await f.t.createOrg('Live review');
      const u = await newUser(f.t, await f.t.platformToken(o.production), { production: true });
      await driveTo(f.t, u, 'pending');
      return { u, id: await verificationId(f.t, u) };
    };
    it('pending --review approved--> approved', async () => {
      const { u, id } = await pendingLive();
      expect((await review(f.t, id, 'approve')).statusCode).toBe(200);
      expectState(await getState(f.t, u), 'approved');
      await expectEvent(u, 2, 'approved');
    });
    it('pending --review rejected--> rejected', async () => {
      const { u, id } = await pendingLive();
      expect(
        (await review(f.t, id, 'reject', { reason: 'The document photo does not match you.' })).statusCode,
      ).toBe(200);
      expect(expectState(await getState(f.t, u), 'rejected').reason).toBe(
        'The document photo does not match you.',
      );
      await expectEvent(u, 2, 'rejected');
    });
    it('pending --review (a detail did not match)--> needs_information, then information re-runs the check', async () => {
      const { u, id } = await pendingLive();
      const res = await review(f.t, id, 'request_information', {
        fields: ['date_of_birth'],
        reason: 'Your date of birth does not match your document.',
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = expectState(await getState(f.t, u), 'needs_information');
      expect(body.required_fields).toEqual(['date_of_birth']);
      expect(body.reason).toBe('Your date of birth does not match your document.');
      await expectEvent(u, 2, 'needs_information');
      // needs_information --information (face scan done)--> pending: the check re-runs automatically.
      expectState(await information(f.t, u, { date_of_birth: '1985-11-03' }), 'pending');
      await expectEvent(u, 3, 'pending');
    });
    it('pending --review (images unusable)--> awaiting_documents', async () => {
      const { u, id } = await pendingLive();
      expect(
        (await review(f.t, id, 'request_documents', { reason: 'The photos were too blurry.' })).statusCode,
      ).toBe(200);
      expect(expectState(await getState(f.t, u), 'awaiting_documents').reason).toBe(
        'The photos were too blurry.',
      );
      await expectEvent(u, 2, 'awaiting_documents');
    });
  });

  for (const from of [
    'awaiting_documents',
    'needs_information',
    'requires_verification',
    'pending',
    'approved',
    'rejected',
  ]) {
    it(`${from} --simulate--> approved / rejected / awaiting_documents (requires_input), each firing the event`, async () => {
      const u = await newUser(f.t, f.sandbox);
      await at[from]!(u);
      let before = (await kycEvents(f.t, u)).length;
      for (const [outcome, status] of [
        ['requires_input', 'awaiting_documents'],
        ['rejected', 'rejected'],
        ['approved', 'approved'],
      ] as const) {
        expectState(await simulate(f.t, u, outcome), status);
        await expectEvent(u, before, status);
        before += 1;
      }
    });
  }

  it('information is refused when the status does not ask for it', async () => {
    const u = await newUser(f.t, f.sandbox);
    expectError(await information(f.t, u, { national_id_number: '123456789' }), 409, 'invalid_kyc_state');
  });

  it('a second page completion is refused once pending', async () => {
    const u = await newUser(f.t, f.sandbox);
    const back = await driveTo(f.t, u, 'requires_verification');
    const { session } = await openPage(f.t, back.iframe_url as string);
    expect((await submitPage(f.t, session, { fields: {}, frames: cameraFrames() })).statusCode).toBe(200);
    expectError(
      await submitPage(f.t, session, { fields: {}, frames: cameraFrames() }),
      409,
      'invalid_kyc_state',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { runCommand } from '../../../src/cli/commands.ts';
import { asApiError } from '../../../src/core/refusal.ts';
import { startTestApp } from '../../helpers/harness.ts';
import {
  cameraFrames,
  driveTo,
  expectError,
  expectState,
  getState,
  type KycUser,
  kycEvents,
  newUser,
  openPage,
  PERSON_CA_LICENCE,
  REVIEWER_TOKEN,
  review,
  submitPage,
  useKycApp,
  verificationId,
} from './helpers.ts';

// A fresh organization per test: an approved document would conflict with the next test's user.
const f = useKycApp({ each: 'organization', name: 'Reviewed' });

async function pendingLive(): Promise<{ u: KycUser; id: string }> {
  const u = await newUser(f.t, await f.t.platformToken(f.org.production), { production: true });
  await driveTo(f.t, u, 'pending');
  return { u, id: await verificationId(f.t, u) };
}

describe('manual review queue API (/operator/kyc/reviews)', () => {
  it('lists live pending verifications with what was read and confirmed, never sandbox ones', async () => {
    const { u, id } = await pendingLive();
    const s = await newUser(f.t, f.sandbox);
    await driveTo(f.t, s, 'pending');
    const res = await f.t.call('GET', `/operator/kyc/reviews?organization_id=${f.org.organization_id}`, {
      token: REVIEWER_TOKEN,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      object: 'kyc_review',
      id,
      user_id: u.userId,
      status: 'pending',
      document_type: 'drivers_license',
      issuing_country: 'CA',
      extracted: { last_name: 'TREMBLAY', document_number: PERSON_CA_LICENCE.documentNumber },
      national_id_submitted: false,
    });
    expect(data[0].face_scan_at).toEqual(expect.any(String));
  });

  it('pages the queue in the one list envelope, oldest first; an id not in it is 400', async () => {
    await pendingLive();
    await pendingLive();
    const list = async (query: string) => {
      const res = await f.t.call(
        'GET',
        `/operator/kyc/reviews?organization_id=${f.org.organization_id}${query}`,
        {
          token: REVIEWER_TOKEN,
        },
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { object: string; data: { id: string }[]; has_more: boolean };
    };
    const whole = await list('');
    expect(whole).toMatchObject({ object: 'list', has_more: false });
    expect(whole.data.length).toBeGreaterThanOrEqual(2);
    const paged: string[] = [];
    let page = await list('&limit=1');
    for (;;) {
      paged.push(...page.data.map((item) => item.id));
      if (!page.has_more) break;
      page = await list(`&limit=1&starting_after=${paged.at(-1)}`);
    }
    expect(paged).toEqual(whole.data.map((item) => item.id));
    expectError(
      await f.t.call('GET', '/operator/kyc/reviews?starting_after=kyc_unknown', { token: REVIEWER_TOKEN }),
      400,
      'invalid_request',
    );
  });

  it('keeps corrections made on the hosted page for the reviewer', async () => {
    const u = await newUser(f.t, await f.t.platformToken(f.org.production), { production: true });
    const state = await driveTo(f.t, u, 'requires_verification');
    const { session } = await openPage(f.t, state.iframe_url as string);
    const res = await submitPage(f.t, session, {
      fields: { first_name: 'Alexandra' },
      frames: cameraFrames(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [item] = (await ctxQueue()).data.filter((i) => i.user_id === u.userId);
    expect(item?.information.first_name).toBe('Alexandra');
  });

  it('answers 401 without the reviewer token (a platform token is not one) and 404 when the queue API is off', async () => {
    const { id } = await pendingLive();
    expectError(await f.t.call('GET', '/operator/kyc/reviews'), 401, 'unauthorized');
    expectError(
      await f.t.call('POST', `/operator/kyc/reviews/${id}/approve`, { token: f.sandbox }),
      401,
      'unauthorized',
    );
    const off = await startTestApp();
    try {
      expectError(
        await off.call('GET', '/operator/kyc/reviews', { token: REVIEWER_TOKEN }),
        404,
        'not_found',
      );
    } finally {
      await off.close();
    }
  });

  it('needs an end-user-safe reason to reject, ask for information or documents', async () => {
    const { id } = await pendingLive();
    expect(
      expectError(await review(f.t, id, 'reject', {}), 400, 'invalid_request').field_errors,
    ).toHaveProperty('reason');
    expectError(await review(f.t, id, 'reject', { reason: 'Flagged by Onfido' }), 400, 'invalid_reason');
    expectError(
      await review(f.t, id, 'request_information', { fields: ['shoe_size'], reason: 'Check it.' }),
      400,
      'invalid_request',
    );
  });

  it('refuses verifications that are not pending (409) and unknown ones (404)', async () => {
    const { id } = await pendingLive();
    expect((await review(f.t, id, 'approve')).statusCode).toBe(200);
    expectError(await review(f.t, id, 'approve'), 409, 'invalid_kyc_state');
    expectError(await review(f.t, 'kyc_unknown', 'approve'), 404, 'not_found');
  });
});

async function ctxQueue() {
  return f.t.ctx.kyc.reviewQueue({ organizationId: f.org.organization_id });
}

describe('purser kyc review (CLI)', () => {
  const cli = async (...argv: string[]) => {
    const lines: string[] = [];
    await runCommand(f.t.ctx, argv, (line) => lines.push(line));
    return lines.join('\n');
  };

  it('lists, approves and rejects, each firing the event', async () => {
    const a = await pendingLive();
    const b = await pendingLive();
    const list = JSON.parse(await cli('kyc', 'review', 'list', '--org', f.org.organization_id, '--json'));
    expect(list.map((i: { id: string }) => i.id).sort()).toEqual([a.id, b.id].sort());
    expect(await cli('kyc', 'review', 'list', '--org', f.org.organization_id)).toContain(a.id);

    expect(await cli('kyc', 'review', 'approve', a.id, '--reviewer', 'alice')).toBe(`${a.id}: approved`);
    expectState(await getState(f.t, a.u), 'approved');
    expect(
      await cli('kyc', 'review', 'reject', b.id, '--reason', 'We could not match your face to the document.'),
    ).toBe(`${b.id}: rejected`);
    expect(expectState(await getState(f.t, b.u), 'rejected').reason).toBe(
      'We could not match your face to the document.',
    );
    expect((await kycEvents(f.t, b.u)).at(-1)?.data.status).toBe('rejected');
    const transitions = await f.t.ctx.db
      .selectFrom('kyc_transitions')
      .select(['actor', 'to_status'])
      .where('verification_id', '=', a.id)
      .where('to_status', '=', 'approved')
      .execute();
    expect(transitions).toEqual([{ actor: 'review:alice', to_status: 'approved' }]);
    // Each decision is in the organization's audit log, as the CLI's other changes are.
    const audited = (await f.t.ctx.members.auditLog(f.org.organization_id)).map((e) => [
      e.action,
      e.object_id,
    ]);
    expect(audited).toEqual(
      expect.arrayContaining([
        ['kyc.approved', a.id],
        ['kyc.rejected', b.id],
      ]),
    );
  });

  it('asks for information or new documents', async () => {
    const a = await pendingLive();
    await cli(
      'kyc',
      'review',
      'request-information',
      a.id,
      '--field',
      'last_name',
      '--reason',
      'Your last name does not match.',
    );
    expect(expectState(await getState(f.t, a.u), 'needs_information').required_fields).toEqual(['last_name']);
    const b = await pendingLive();
    await cli('kyc', 'review', 'request-documents', b.id, '--reason', 'The photos were unreadable.');
    expectState(await getState(f.t, b.u), 'awaiting_documents');
    await expect(cli('kyc', 'review', 'request-information', b.id, '--reason', 'x')).rejects.toThrow(
      /--field/,
    );
    await expect(cli('kyc', 'review', 'reject', b.id)).rejects.toThrow(/--reason/);
  });

  it('kyc simulate decides a test-mode verification like the simulate call, and refuses live ones', async () => {
    const u = await newUser(f.t, f.sandbox);
    expect(await cli('kyc', 'simulate', u.userId, '--outcome', 'approved')).toBe(`${u.userId}: approved`);
    expectState(await getState(f.t, u), 'approved');
    expect((await f.t.ctx.members.auditLog(f.org.organization_id)).at(0)).toMatchObject({
      member_email: 'operator (CLI)',
      action: 'kyc.simulated.approved',
      object_id: u.userId,
      livemode: 0,
    });
    expect((await kycEvents(f.t, u)).at(-1)?.data).toMatchObject({ status: 'approved' });
    const json = JSON.parse(
      await cli(
        'kyc',
        'simulate',
        u.userId,
        '--outcome',
        'rejected',
        '--reason',
        'Try another ID.',
        '--json',
      ),
    );
    expect(json).toMatchObject({ object: 'kyc', status: 'rejected', reason: 'Try another ID.' });

    const live = await newUser(f.t, await f.t.platformToken(f.org.production), { production: true });
    // The command refuses as the API would: the same code, answered with the same status.
    const refusal = (argv: string[]) => cli(...argv).then(() => null, asApiError);
    expect(await refusal(['kyc', 'simulate', live.userId, '--outcome', 'approved'])).toMatchObject({
      status: 403,
      code: 'sandbox_only',
    });
    expect(await refusal(['kyc', 'simulate', 'usr_unknown', '--outcome', 'approved'])).toMatchObject({
      status: 404,
      code: 'connection_not_found',
    });
    await expect(cli('kyc', 'simulate', u.userId, '--outcome', 'maybe')).rejects.toThrow(/--outcome/);
  });
});

import { ApiError } from '../../../core/errors.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
import {
  INFORMATION_FIELDS,
  type InformationField,
  type ReviewDecision,
} from '../../../domains/kyc/index.ts';
import type { SignedInMember } from '../../../domains/members/index.ts';
import { escapeHtml } from '../../html.ts';
import {
  type ActRequest,
  type ConsoleKit,
  type ConsoleServices,
  copyable,
  type Feedback,
  hidden,
  messages,
  type OrgScope,
  type Page,
  shortId,
} from '../kit.ts';

/**
 * The KYC review queue: the organization's live verifications waiting in `pending`, oldest first,
 * each with what the user submitted, and its verdict: approve, reject (with a reason), or request
 * information (the fields to collect again, with a reason). The same `KycService.applyReview` as
 * `purser kyc review` and `/operator/kyc/reviews`; each verdict in the audit log.
 */

const QUEUE_LIMIT = 100;

/** The verdicts and their audit-log action and notice. */
const VERDICTS = {
  approve: { audit: 'kyc.approved', done: 'kyc_approved' },
  reject: { audit: 'kyc.rejected', done: 'kyc_rejected' },
  request_information: { audit: 'kyc.information_requested', done: 'kyc_information' },
} as const;

const listOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? [value]
      : [];

export async function kycPages(
  app: RoutesApp,
  { kyc, members }: Pick<ConsoleServices, 'kyc' | 'members'>,
  { header, formPage }: ConsoleKit,
) {
  const queue = (scope: OrgScope) =>
    scope.livemode
      ? kyc
          .reviewQueue({ organizationId: scope.organizationId, limit: QUEUE_LIMIT })
          .then((page) => page.data)
      : Promise.resolve([]);

  const kycPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    feedback: Feedback,
  ): Promise<Page> => {
    const items = await queue(scope);
    const base = `/dashboard/${scope.organizationId}/${scope.mode}`;
    const fieldBoxes = INFORMATION_FIELDS.map(
      (f) => `<label><input type="checkbox" name="fields" value="${f}"> ${f.replaceAll('_', ' ')}</label>`,
    ).join('');
    const cards = items
      .map((item) => {
        const details = Object.entries({ ...item.extracted, ...item.information })
          .map(
            ([k, v]) =>
              `<tr><th>${escapeHtml(k.replaceAll('_', ' '))}</th><td class="wrap">${escapeHtml(String(v))}</td></tr>`,
          )
          .join('');
        const form = (action: keyof typeof VERDICTS, body: string, label: string, secondary = false) =>
          `<form class="review" method="post" action="${base}/kyc">${hidden('csrf', csrf)}${hidden('action', action)}${hidden('verification_id', item.id)}${body}<button type="submit"${secondary ? ' class="secondary"' : ''}>${label}</button></form>`;
        const reason = `<label>Reason (the user reads it)<br><input type="text" name="reason" maxlength="300" required></label>`;
        return `<section class="verification" data-verification="${escapeHtml(item.id)}"><h2>${copyable(item.id)}</h2>
<p>User <a href="${base}/users/${escapeHtml(item.user_id)}">${shortId(item.user_id)}</a> · ${escapeHtml(item.document_type ?? 'document')} of ${escapeHtml(item.issuing_country ?? '?')} · submitted ${escapeHtml(item.submitted_at ?? '')} · face scan ${item.face_scan_at ? 'done' : 'none'} · national id ${item.national_id_submitted ? 'given' : 'not given'}</p>
<table>${details}</table>
${form('approve', '', 'Approve')}
${form('reject', reason, 'Reject', true)}
<details><summary>Request information</summary>${form('request_information', `<div class="events">${fieldBoxes}</div>${reason}`, 'Request information', true)}</details></section>`;
      })
      .join('');
    const empty = scope.livemode
      ? '<section><p class="hint" id="queue-empty">No verification is waiting for review.</p></section>'
      : '<section><p class="hint" id="queue-empty">Test-mode verifications are decided by <code>POST /api/v2/kyc/simulate</code>, not reviewed: switch to production for the review queue.</p></section>';
    return {
      title: 'KYC review',
      body: `${header(member, scope, csrf, 'kyc')}<main><h1>KYC review queue</h1>${messages(feedback)}${items.length ? cards : empty}</main>`,
    };
  };

  formPage(app, 'kyc', kycPage, (request: ActRequest) => async (member, scope) => {
    const body = request.body as Record<string, unknown>;
    const action = body.action as keyof typeof VERDICTS;
    const verdict = VERDICTS[action];
    if (!verdict) throw new ApiError(400, 'invalid_request', 'Unknown action.');
    const id = typeof body.verification_id === 'string' ? body.verification_id : '';
    // Only this organization's live queue: anything else is not found here.
    if (!(await queue(scope)).some((item) => item.id === id))
      throw new ApiError(404, 'not_found', 'No such verification waiting for review.');
    const reason = typeof body.reason === 'string' ? body.reason : '';
    const decision: ReviewDecision =
      action === 'approve'
        ? { outcome: 'approved' }
        : action === 'reject'
          ? { outcome: 'rejected', reason }
          : { outcome: 'needs_information', reason, fields: listOf(body.fields) as InformationField[] };
    await kyc.applyReview(id, decision, `console:${member.email}`);
    await members.audit(member, scope, verdict.audit, id);
    return { redirect: `${request.url.split('?')[0]}?done=${verdict.done}` };
  });
}

import type { AppContext } from '../../context.ts';
import { oneOf, parse, required, UsageError } from '../../core/args.ts';
import { INFORMATION_FIELDS, type InformationField } from './fields.ts';
import type { ReviewDecision } from './review.ts';
import { SIMULATE_OUTCOMES, type SimulateOutcome } from './service.ts';

export const KYC_USAGE = `  kyc simulate USER_ID --outcome approved|rejected|requires_input [--reason TEXT] [--json]
                                                 test mode: decide a verification as the simulate call does
  kyc review list [--org ORG_ID] [--limit N] [--json]          live verifications waiting for review
  kyc review approve VERIFICATION_ID [--reviewer NAME] [--json]
  kyc review reject VERIFICATION_ID --reason TEXT [--reviewer NAME] [--json]
  kyc review request-information VERIFICATION_ID --field F [--field F]... --reason TEXT [--json]
  kyc review request-documents VERIFICATION_ID --reason TEXT [--json]`;

type Print = (text: string) => void;

/** The audit-log action of each review verdict. */
const REVIEW_AUDIT: Record<ReviewDecision['outcome'], string> = {
  approved: 'kyc.approved',
  rejected: 'kyc.rejected',
  needs_information: 'kyc.information_requested',
  needs_documents: 'kyc.documents_requested',
};

/**
 * `purser kyc simulate …` (a sandbox scenario) and `purser kyc review …` (the manual review queue)
 * from the command line. False when argv is not ours.
 */
export async function runKycCommand(ctx: AppContext, argv: string[], print: Print): Promise<boolean> {
  const [group, sub, action, ...rest] = argv;
  if (group !== 'kyc') return false;
  const json = { type: 'boolean' } as const;
  if (sub === 'simulate') {
    const { values, positionals } = parse(argv.slice(2), {
      outcome: { type: 'string' },
      reason: { type: 'string' },
      json,
    });
    const userId = required(positionals[0], 'USER_ID');
    const outcome: SimulateOutcome = oneOf(
      required(values.outcome, 'outcome'),
      'outcome',
      SIMULATE_OUTCOMES,
    )!;
    const principal = await ctx.connect.actAsConnectedClient(userId);
    const state = await ctx.kyc.simulate(principal, {
      user_id: userId,
      outcome,
      ...(values.reason !== undefined ? { reason: values.reason } : {}),
    });
    await ctx.members.auditOperator(principal, `kyc.simulated.${outcome}`, userId);
    if (values.json) print(JSON.stringify(state, null, 2));
    else print(`${userId}: ${state.status}${state.reason ? ` (${state.reason})` : ''}`);
    return true;
  }
  if (sub !== 'review') throw new UsageError('usage: purser kyc simulate|review …');

  if (action === 'list') {
    const { values } = parse(rest, { org: { type: 'string' }, limit: { type: 'string' }, json });
    const limit = Number(values.limit ?? 50);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer');
    const { data: queue } = await ctx.kyc.reviewQueue({
      limit,
      ...(values.org ? { organizationId: values.org } : {}),
    });
    if (values.json) {
      print(JSON.stringify(queue, null, 2));
      return true;
    }
    if (queue.length === 0) {
      print('No verifications are waiting for review.');
      return true;
    }
    for (const item of queue) {
      const name = [
        item.extracted.first_name ?? item.information.first_name,
        item.extracted.last_name ?? item.information.last_name,
      ]
        .filter(Boolean)
        .join(' ');
      print(
        `${item.id}  ${item.organization_id}  ${item.user_id}  ${item.document_type ?? '-'} ${item.issuing_country ?? ''}  ${name}  since ${item.submitted_at ?? '-'}`,
      );
    }
    return true;
  }

  const decisions: Record<string, true> = {
    approve: true,
    reject: true,
    'request-information': true,
    'request-documents': true,
  };
  if (action === undefined || !decisions[action])
    throw new UsageError(`unknown kyc review action: ${action ?? '(none)'}`);
  const { values, positionals } = parse(rest, {
    reason: { type: 'string' },
    field: { type: 'string', multiple: true },
    reviewer: { type: 'string' },
    json,
  });
  const id = required(positionals[0], 'VERIFICATION_ID');
  let decision: ReviewDecision;
  if (action === 'approve') decision = { outcome: 'approved' };
  else if (action === 'reject') decision = { outcome: 'rejected', reason: required(values.reason, 'reason') };
  else if (action === 'request-documents')
    decision = { outcome: 'needs_documents', reason: required(values.reason, 'reason') };
  else {
    const fields = (values.field as string[] | undefined) ?? [];
    const unknown = fields.filter((f) => !(INFORMATION_FIELDS as readonly string[]).includes(f));
    if (fields.length === 0 || unknown.length > 0)
      throw new UsageError(`--field must name one or more of: ${INFORMATION_FIELDS.join(', ')}`);
    decision = {
      outcome: 'needs_information',
      fields: fields as InformationField[],
      reason: required(values.reason, 'reason'),
    };
  }
  const result = await ctx.kyc.applyReview(
    id,
    decision,
    typeof values.reviewer === 'string' ? values.reviewer : 'cli',
  );
  // Named as the console's verdicts (src/web/console/pages/kyc.ts); reviews decide live verifications only.
  await ctx.members.auditOperator(
    { organizationId: result.organization_id, livemode: true },
    REVIEW_AUDIT[decision.outcome],
    result.id,
  );
  print(values.json ? JSON.stringify(result, null, 2) : `${result.id}: ${result.status}`);
  return true;
}

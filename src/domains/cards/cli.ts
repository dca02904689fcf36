import type { AppContext } from '../../context.ts';
import { type Print, parse, UsageError } from '../../core/args.ts';
import { Refusal } from '../../core/refusal.ts';
import type { CardRefusalCode } from './index.ts';
import { IssuerUnreadable } from './issuer.ts';

export const ISSUER_USAGE = `  issuer reconcile [--since DATE] [--json]
                                      CARD_ISSUER=lithic: every issuer transaction (created from DATE on,
                                      RFC 3339; all by default) against the books; exits 1 naming each drift`;

/** `purser issuer …`: false when argv is not ours. */
export async function runIssuerCommand(ctx: AppContext, argv: string[], print: Print): Promise<boolean> {
  const [group, action, ...rest] = argv;
  if (group !== 'issuer' || action !== 'reconcile') return false;
  const { values } = parse(rest, { since: { type: 'string' }, json: { type: 'boolean' } });
  if (ctx.config.cards.issuer !== 'lithic')
    throw new UsageError(
      'issuer reconcile needs CARD_ISSUER=lithic: the built-in network has no issuer to compare',
    );
  const since = values.since === undefined ? null : Date.parse(values.since);
  if (since !== null && !Number.isFinite(since))
    throw new UsageError('--since must be a date (RFC 3339, e.g. 2026-11-01 or 2026-11-01T00:00:00Z)');
  const check = await ctx.cards.reconciler.reconcile(since).catch((error: unknown) => {
    if (error instanceof IssuerUnreadable)
      throw new Refusal<CardRefusalCode>('issuer_unavailable', `issuer reconcile: ${error.message}`);
    throw error;
  });
  if (values.json) {
    print(JSON.stringify({ ok: check.drifts.length === 0, ...check }, null, 2));
  } else {
    for (const d of check.drifts)
      print(`drift  ${d.kind.padEnd(10)}  ${d.transaction_id}  ${d.card_id ?? '-'}  ${d.detail}`);
    const judged = check.transactions - check.in_flight;
    const recent =
      check.in_flight > 0 ? ` (${check.in_flight} changed in the last minutes, left for later)` : '';
    print(
      check.drifts.length === 0
        ? `issuer ok: ${judged} ${check.issuer} transactions agree with the books${recent}`
        : `issuer reconcile: ${check.drifts.length} of ${judged} ${check.issuer} transactions drift${recent}`,
    );
  }
  if (check.drifts.length > 0) process.exitCode = 1;
  return true;
}

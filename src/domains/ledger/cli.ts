import type { AppContext } from '../../context.ts';
import { parse } from '../../core/args.ts';

export const LEDGER_USAGE = `  ledger verify [--json]              check every ledger invariant; exits 1 naming each violation`;

type Print = (text: string) => void;

/** `purser ledger verify`: false when argv is not ours. */
export async function runLedgerCommand(ctx: AppContext, argv: string[], print: Print): Promise<boolean> {
  const [group, action, ...rest] = argv;
  if (group !== 'ledger' || action !== 'verify') return false;
  const { values } = parse(rest, { json: { type: 'boolean' } });
  const violations = await ctx.ledger.verify();
  if (values.json) {
    print(JSON.stringify({ ok: violations.length === 0, violations }, null, 2));
  } else if (violations.length === 0) {
    print('ledger ok: every invariant holds');
  } else {
    for (const v of violations) print(`${v.invariant}  ${v.subject}  ${v.detail}`);
    print(`ledger verify: ${violations.length} violation${violations.length === 1 ? '' : 's'}`);
  }
  if (violations.length > 0) process.exitCode = 1;
  return true;
}

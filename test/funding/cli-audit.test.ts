import { expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.ts';
import { useOrgApp } from '../helpers/fixtures.ts';

/** What an operator changes through the CLI is in the organization's audit log, as a member's action. */
const f = useOrgApp();

it('wallet fund and wallet fees write an audit entry as operator (CLI)', async () => {
  const orgId = f.org.organization_id;
  const run = (argv: string[]) => runCommand(f.t.ctx, argv, () => {});
  await run(['wallet', 'fund', orgId, '--mode', 'sandbox', '--amount-cents', '500']);
  await run(['wallet', 'fees', orgId, '--mode', 'production', '--bps', '150', '--fixed-cents', '30']);
  const audited = await f.t.ctx.db
    .selectFrom('audit_log')
    .select(['member_email', 'action', 'object_id', 'livemode'])
    .where('organization_id', '=', orgId)
    .execute();
  expect(audited).toEqual([
    { member_email: 'operator (CLI)', action: 'pool.funded', object_id: orgId, livemode: 0 },
    { member_email: 'operator (CLI)', action: 'wallet_fees.updated', object_id: orgId, livemode: 1 },
  ]);
  expect(await f.t.ctx.ledger.verify()).toEqual([]);
});

import { expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.ts';
import { useOrgApp } from '../helpers/fixtures.ts';

/** Every CLI command that changes an organization writes its audit entry, as the console's actions do. */
const f = useOrgApp();

it('org, client, key and member commands write an audit entry as operator (CLI), in their mode', async () => {
  const run = async (argv: string[]) => {
    const lines: string[] = [];
    await runCommand(f.t.ctx, [...argv, '--json'], (line) => lines.push(line));
    return JSON.parse(lines.join('\n'));
  };
  const created = await run(['org', 'create', '--name', 'Audited', '--billing-email', 'ops@audited.test']);
  const orgId = created.organization_id as string;
  await run(['org', 'update', orgId, '--name', 'Audited Inc', '--approval-threshold', '5000']);
  const client = await run(['client', 'create', orgId, '--mode', 'sandbox', '--name', 'Batch']);
  await run(['client', 'rotate-secret', client.client_id]);
  await run(['client', 'revoke', client.client_id]);
  const key = await run(['key', 'create', orgId, '--mode', 'production']);
  const rotated = await run(['key', 'rotate', orgId, '--mode', 'sandbox']);
  const member = await run(['member', 'add', orgId, '--email', 'dev@audited.test', '--role', 'developer']);

  const log = await f.t.ctx.members.auditLog(orgId);
  expect(
    log
      .map(({ member_email, action, object_id, livemode }) => ({ member_email, action, object_id, livemode }))
      .reverse(),
  ).toEqual(
    [
      { action: 'organization.created', object_id: orgId, livemode: 1 },
      { action: 'organization.updated', object_id: orgId, livemode: 1 },
      { action: 'client.created', object_id: client.client_id, livemode: 0 },
      { action: 'client.secret_rotated', object_id: client.client_id, livemode: 0 },
      { action: 'client.revoked', object_id: client.client_id, livemode: 0 },
      { action: 'api_key.created', object_id: key.id, livemode: 1 },
      { action: 'api_key.rotated', object_id: rotated.id, livemode: 0 },
      { action: 'member.invited.developer', object_id: member.member_id, livemode: 1 },
    ].map((entry) => ({ member_email: 'operator (CLI)', ...entry })),
  );
  // Another organization's log holds none of it.
  expect(await f.t.ctx.members.auditLog(f.org.organization_id)).toEqual([]);
});

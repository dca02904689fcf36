import { readFileSync } from 'node:fs';
import type { AppContext } from '../context.ts';
import { oneOf, type Print, parse, required, show, UsageError } from '../core/args.ts';
import { isoTime } from '../core/clock.ts';
import { tenantOf } from '../core/tenant.ts';
import { ISSUER_USAGE, runIssuerCommand } from '../domains/cards/cli.ts';
import { EVENTS_USAGE, runEventsCommand } from '../domains/events/cli.ts';
import { FUNDING_USAGE, runFundingCommand } from '../domains/funding/cli.ts';
import { KYC_USAGE, runKycCommand } from '../domains/kyc/cli.ts';
import { LEDGER_USAGE, runLedgerCommand } from '../domains/ledger/cli.ts';
import { MEMBER_ROLES } from '../domains/members/service.ts';
import { MERCHANT_USAGE, runMerchantCommand } from '../domains/purchases/cli.ts';
import { RECEIPT_KEYS_USAGE, runReceiptKeysCommand } from '../domains/receipts/cli.ts';
import { ENCRYPTION_KEY_USAGE, runEncryptionKeyCommand } from './encryption-key.ts';
import { runTriggerCommand, TRIGGER_USAGE } from './trigger/command.ts';

export const USAGE = `Usage: purser <command>

  serve [--role api|worker|all]       run the API, the worker or both (all, the default); every
                                      role serves /healthz, /readyz and /metrics (the worker on HEALTH_PORT)
  worker                              the same as serve --role worker: webhook deliveries, retries, sweeps
  migrate                             apply database migrations
  org create --name N --billing-email E [--json]
  org update ORG_ID [--status active|suspended] [--subscription active|none] [--branded-vault on|off]
                    [--approval-threshold CENTS|off] [--mandate-overflow decline|approval]
                    [--name N] [--billing-email E]
                    [--connect-email-subject S] [--connect-email-text-file F] [--connect-email-html-file F]
                    [--connect-email-default] [--live-card-details on|off]
                    [--wallet-links on|off] [--json]
  client create ORG_ID --mode sandbox|production [--public] [--name N] [--redirect-uri URI]... [--json]
  client rotate-secret CLIENT_ID [--json]
  client revoke CLIENT_ID [--json]
  key create ORG_ID --mode sandbox|production [--json]
  key rotate ORG_ID --mode sandbox|production [--json]
  member add ORG_ID --email E --role owner|developer|viewer [--json]
${EVENTS_USAGE}
${KYC_USAGE}
${LEDGER_USAGE}
${FUNDING_USAGE}
${ISSUER_USAGE}
${MERCHANT_USAGE}
${TRIGGER_USAGE}
${ENCRYPTION_KEY_USAGE}
${RECEIPT_KEYS_USAGE}
  outbox [--limit N] [--json]         messages kept locally instead of sent (sandbox, or no SMTP/SMS)

Settings come from the environment (DATABASE_URL, …); see docs/operations.md.`;

const MODES = ['sandbox', 'production'] as const;

/**
 * Where an organization-wide change (no mode of its own: the organization, its members) is written
 * in the audit log: under production, beside the live credentials it governs.
 */
const orgWide = (organizationId: string) => ({ organizationId, livemode: true });
const modeScope = (organizationId: string, mode: (typeof MODES)[number]) => ({
  organizationId,
  livemode: mode === 'production',
});

/** Runs one operator command against the context's database. */
export async function runCommand(ctx: AppContext, argv: string[], print: Print): Promise<void> {
  const [group, action, ...rest] = argv;
  const json = { type: 'boolean' } as const;

  if (group === 'org' && action === 'create') {
    const { values } = parse(rest, { name: { type: 'string' }, 'billing-email': { type: 'string' }, json });
    const created = await ctx.orgs.createOrganization({
      name: required(values.name, 'name'),
      billingEmail: required(values['billing-email'], 'billing-email'),
    });
    await ctx.members.auditOperator(
      orgWide(created.organization_id),
      'organization.created',
      created.organization_id,
    );
    return show(print, values.json, created);
  }

  if (group === 'org' && action === 'update') {
    const { values, positionals } = parse(rest, {
      status: { type: 'string' },
      subscription: { type: 'string' },
      name: { type: 'string' },
      'billing-email': { type: 'string' },
      'connect-email-subject': { type: 'string' },
      'connect-email-text-file': { type: 'string' },
      'connect-email-html-file': { type: 'string' },
      'connect-email-default': { type: 'boolean' },
      'live-card-details': { type: 'string' },
      'branded-vault': { type: 'string' },
      'wallet-links': { type: 'string' },
      'approval-threshold': { type: 'string' },
      'mandate-overflow': { type: 'string' },
      json,
    });
    const orgId = required(positionals[0], 'ORG_ID');
    const brandedVault = oneOf(values['branded-vault'], 'branded-vault', ['on', 'off'] as const);
    const liveCardDetails = oneOf(values['live-card-details'], 'live-card-details', ['on', 'off'] as const);
    const walletLinks = oneOf(values['wallet-links'], 'wallet-links', ['on', 'off'] as const);
    const overflow = oneOf(values['mandate-overflow'], 'mandate-overflow', ['decline', 'approval'] as const);
    const threshold = values['approval-threshold'];
    if (threshold !== undefined && threshold !== 'off' && !/^(0|[1-9][0-9]{0,10})$/.test(threshold))
      throw new UsageError('--approval-threshold must be an amount in integer cents, or off');
    const branded =
      values['connect-email-subject'] !== undefined ||
      values['connect-email-text-file'] !== undefined ||
      values['connect-email-html-file'] !== undefined;
    const read = (path: string | undefined) => (path === undefined ? null : readFileSync(path, 'utf8'));
    const org = await ctx.orgs.updateOrganization(orgId, {
      status: oneOf(values.status, 'status', ['active', 'suspended'] as const),
      subscription: oneOf(values.subscription, 'subscription', ['active', 'none'] as const),
      name: values.name,
      billingEmail: values['billing-email'],
      connectEmail: values['connect-email-default']
        ? { subject: null, text: null, html: null }
        : branded
          ? {
              subject: values['connect-email-subject'] ?? null,
              text: read(values['connect-email-text-file']),
              html: read(values['connect-email-html-file']),
            }
          : undefined,
    });
    if (liveCardDetails) await ctx.cards.setLiveCardDetails(orgId, liveCardDetails === 'on');
    if (brandedVault) await ctx.vault.setBrandedVault(orgId, brandedVault === 'on');
    if (walletLinks) await ctx.links.setEnabled(orgId, walletLinks === 'on');
    if (threshold !== undefined)
      await ctx.vault.setApprovalThreshold(orgId, threshold === 'off' ? null : Number(threshold));
    if (overflow) await ctx.vault.setMandateOverflow(orgId, overflow);
    await ctx.members.auditOperator(orgWide(orgId), 'organization.updated', orgId);
    return show(print, values.json, {
      organization_id: org.id,
      name: org.name,
      billing_email: org.billing_email,
      status: org.status,
      subscription: org.subscription,
      branded_connect_email: org.connect_email_text !== null || org.connect_email_html !== null,
      wallet_links: await ctx.links.isEnabled(org.id),
      approval_threshold_cents: await ctx.vault.approvalThreshold(org.id),
      mandate_overflow: await ctx.vault.mandateOverflow(org.id),
    });
  }

  if (group === 'client' && action === 'create') {
    const { values, positionals } = parse(rest, {
      mode: { type: 'string' },
      public: { type: 'boolean' },
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      json,
    });
    const orgId = required(positionals[0], 'ORG_ID');
    const created = await ctx.orgs.createClient(orgId, {
      mode: oneOf(required(values.mode, 'mode'), 'mode', MODES) as (typeof MODES)[number],
      type: values.public ? 'public' : 'confidential',
      name: values.name,
      redirectUris: values['redirect-uri'] as string[] | undefined,
    });
    await ctx.members.auditOperator(modeScope(orgId, created.mode), 'client.created', created.client_id);
    return show(print, values.json, created);
  }

  if (group === 'client' && (action === 'rotate-secret' || action === 'revoke')) {
    const { values, positionals } = parse(rest, { json });
    const clientId = required(positionals[0], 'CLIENT_ID');
    const result =
      action === 'revoke'
        ? await ctx.orgs.revokeClient(clientId)
        : await ctx.orgs.rotateClientSecret(clientId);
    const client = await ctx.orgs.findClient(clientId);
    if (client)
      await ctx.members.auditOperator(
        tenantOf(client),
        action === 'revoke' ? 'client.revoked' : 'client.secret_rotated',
        clientId,
      );
    return show(print, values.json, result);
  }

  if (group === 'key' && (action === 'create' || action === 'rotate')) {
    const { values, positionals } = parse(rest, { mode: { type: 'string' }, json });
    const orgId = required(positionals[0], 'ORG_ID');
    const mode = oneOf(required(values.mode, 'mode'), 'mode', MODES) as (typeof MODES)[number];
    const key =
      action === 'create'
        ? await ctx.orgs.createApiKey(orgId, mode)
        : await ctx.orgs.rotateApiKey(orgId, mode);
    await ctx.members.auditOperator(
      modeScope(orgId, mode),
      action === 'create' ? 'api_key.created' : 'api_key.rotated',
      key.id,
    );
    return show(print, values.json, key);
  }

  if (group === 'member' && action === 'add') {
    const { values, positionals } = parse(rest, {
      email: { type: 'string' },
      role: { type: 'string' },
      json,
    });
    const role = oneOf(required(values.role, 'role'), 'role', MEMBER_ROLES);
    const added = await ctx.members.add(
      required(positionals[0], 'ORG_ID'),
      required(values.email, 'email'),
      role as (typeof MEMBER_ROLES)[number],
    );
    // Named as the console's invitation is.
    await ctx.members.auditOperator(
      orgWide(added.organization_id),
      `member.invited.${role}`,
      added.member_id,
    );
    return show(print, values.json, added);
  }

  if (group === 'outbox') {
    const { values } = parse(argv.slice(1), { limit: { type: 'string' }, json });
    const limit = Number(values.limit ?? 20);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer');
    const messages = await ctx.notifications.sentMessages(limit);
    if (values.json) return print(JSON.stringify(messages, null, 2));
    if (messages.length === 0) return print('The outbox is empty.');
    for (const m of messages) {
      print(`--- ${isoTime(m.created_at)}  ${m.channel} to ${m.recipient}${m.livemode ? '' : '  (sandbox)'}`);
      if (m.subject) print(`Subject: ${m.subject}`);
      print(m.body);
    }
    return;
  }

  if (await runEventsCommand(ctx, argv, print)) return;

  if (await runKycCommand(ctx, argv, print)) return;
  if (await runLedgerCommand(ctx, argv, print)) return;
  if (await runFundingCommand(ctx, argv, print)) return;
  if (await runIssuerCommand(ctx, argv, print)) return;
  if (await runMerchantCommand(ctx, argv, print)) return;
  if (await runTriggerCommand(ctx, argv, print)) return;
  if (await runEncryptionKeyCommand(ctx, argv, print)) return;
  if (await runReceiptKeysCommand(ctx, argv, print)) return;

  throw new UsageError(`unknown command: ${argv.join(' ') || '(none)'}`);
}

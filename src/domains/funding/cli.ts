import type { AppContext } from '../../context.ts';
import { oneOf, type Print, parse, required, show, UsageError } from '../../core/args.ts';
import { Refusal } from '../../core/refusal.ts';
import { RotationRefused } from './chain/rotate.ts';
import type { FundingRefusalCode } from './index.ts';
import { ChainUnreadable } from './on-chain.ts';

export const FUNDING_USAGE = `  wallet fund ORG_ID --mode sandbox --amount-cents N [--json]
                                      sandbox: a deposit into the company wallet (fires wallet.funded)
  wallet fees ORG_ID --mode sandbox|production --bps N --fixed-cents N [--json]
                                      the fee on company-funded transfers
  wallet address ORG_ID [--user USER_ID] [--json]
                                      CHAIN=evm: the production deposit address of the company pool
                                      (it also pays the transfers' gas) or of a user
  flows list ORG_ID [--mode sandbox|production] [--limit N] [--json]
                                      company-funded card flows, newest first
  chain reconcile [--json]            CHAIN=evm: every pool and user deposit address against the books;
                                      exits 1 naming each drift
  chain rotate-pool-key [--json]      CHAIN=evm, every process stopped: moves what the addresses of
                                      CHAIN_PREVIOUS_POOL_KEY hold to those of CHAIN_POOL_KEY`;

const MODES = ['sandbox', 'production'] as const;

function count(value: string | undefined, name: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(required(value, name));
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new UsageError(`--${name} must be an integer from 0 to ${max}`);
  return n;
}

/** `purser wallet …`, `purser flows …` and `purser chain …`: false when argv is not ours. */
export async function runFundingCommand(ctx: AppContext, argv: string[], print: Print): Promise<boolean> {
  const [group, action, ...rest] = argv;
  const json = { type: 'boolean' } as const;

  if (group === 'wallet' && action === 'fund') {
    const { values, positionals } = parse(rest, {
      mode: { type: 'string' },
      'amount-cents': { type: 'string' },
      json,
    });
    const orgId = required(positionals[0], 'ORG_ID');
    const mode = oneOf(required(values.mode, 'mode'), 'mode', MODES);
    // Production money arrives on the chain, never by an operator's word.
    if (mode !== 'sandbox')
      throw new UsageError('--mode must be sandbox: production funding comes from deposits');
    const amount = count(values['amount-cents'], 'amount-cents', 100_000_000);
    if (amount < 1) throw new UsageError('--amount-cents must be at least 1');
    await ctx.orgs.getOrganization(orgId);
    const scope = { organizationId: orgId, livemode: false };
    const funded = await ctx.funding.fund(scope, amount);
    await ctx.members.auditOperator(scope, 'pool.funded', orgId);
    show(print, values.json, funded);
    return true;
  }

  if (group === 'wallet' && action === 'fees') {
    const { values, positionals } = parse(rest, {
      mode: { type: 'string' },
      bps: { type: 'string' },
      'fixed-cents': { type: 'string' },
      json,
    });
    const orgId = required(positionals[0], 'ORG_ID');
    const mode = oneOf(required(values.mode, 'mode'), 'mode', MODES);
    const fees = {
      bps: count(values.bps, 'bps', 10_000),
      fixedCents: count(values['fixed-cents'], 'fixed-cents'),
    };
    await ctx.orgs.getOrganization(orgId);
    const scope = { organizationId: orgId, livemode: mode === 'production' };
    await ctx.funding.setFees(scope, fees);
    await ctx.members.auditOperator(scope, 'wallet_fees.updated', orgId);
    show(print, values.json, {
      organization_id: orgId,
      mode,
      fee_bps: fees.bps,
      fee_fixed_cents: fees.fixedCents,
    });
    return true;
  }

  if (group === 'wallet' && action === 'address') {
    const { values, positionals } = parse(rest, { user: { type: 'string' }, json });
    const orgId = required(positionals[0], 'ORG_ID');
    await ctx.orgs.getOrganization(orgId);
    if (ctx.funding.chain.name !== 'evm')
      throw new UsageError('deposit addresses exist only with CHAIN=evm (production mode)');
    const scope = { organizationId: orgId, livemode: true };
    const address = values.user
      ? await ctx.funding.onChain.userDepositAddress(scope, values.user)
      : await ctx.funding.chain.depositAddress(orgId, true);
    show(print, values.json, {
      organization_id: orgId,
      ...(values.user ? { user_id: values.user } : {}),
      deposit_address: address,
    });
    return true;
  }

  if (group === 'chain' && action === 'reconcile') {
    const { values } = parse(rest, { json });
    if (ctx.funding.chain.name !== 'evm')
      throw new UsageError('chain reconcile needs CHAIN=evm: with CHAIN=offline no money is on a chain');
    const check = await ctx.funding.onChain.reconcileChain().catch((error: unknown) => {
      if (error instanceof ChainUnreadable)
        throw new Refusal<FundingRefusalCode>('chain_unavailable', `chain reconcile: ${error.message}`);
      throw error;
    });
    if (!check) return true;
    if (values.json) {
      print(JSON.stringify({ ok: check.drifts.length === 0, ...check }, null, 2));
    } else if (check.drifts.length === 0) {
      print(`chain ok: ${check.addresses} addresses agree with the books at block ${check.block}`);
    } else {
      for (const d of check.drifts)
        print(
          `drift  ${d.kind.padEnd(4)}  ${d.address}  ${d.owner_id}  chain ${d.chain}  books ${d.ledger}  drift ${d.drift}`,
        );
      print(
        `chain reconcile: ${check.drifts.length} of ${check.addresses} addresses drift at block ${check.block}`,
      );
    }
    if (check.drifts.length > 0) process.exitCode = 1;
    return true;
  }

  if (group === 'chain' && action === 'rotate-pool-key') {
    const { values } = parse(rest, { json });
    if (ctx.funding.chain.name !== 'evm')
      throw new UsageError(
        'chain rotate-pool-key needs CHAIN=evm: with CHAIN=offline no money is on a chain',
      );
    const rotation = await ctx.funding.onChain.rotatePoolKey().catch((error: unknown) => {
      if (error instanceof RotationRefused)
        throw new UsageError(`chain rotate-pool-key: ${error.message}`, false);
      throw error;
    });
    if (!rotation) return true;
    if (values.json) print(JSON.stringify(rotation, null, 2));
    else {
      for (const a of rotation.addresses)
        print(
          `moved  ${a.kind.padEnd(4)}  ${a.owner_id}  ${a.from} -> ${a.to}  ${a.units} units  ${a.tx_hashes.join(' ')}`,
        );
      print(
        `chain rotate-pool-key: ${rotation.addresses.length} addresses moved to CHAIN_POOL_KEY's; start the processes with it`,
      );
    }
    return true;
  }

  if (group === 'flows' && action === 'list') {
    const { values, positionals } = parse(rest, {
      mode: { type: 'string' },
      limit: { type: 'string' },
      json,
    });
    const orgId = required(positionals[0], 'ORG_ID');
    const mode = oneOf(values.mode, 'mode', MODES);
    const limit = values.limit === undefined ? 50 : count(values.limit, 'limit', 1000);
    const flows = await ctx.funding.listFlows(
      orgId,
      mode === undefined ? null : mode === 'production',
      limit,
    );
    if (values.json) {
      print(JSON.stringify(flows, null, 2));
    } else if (flows.length === 0) {
      print('No card flows.');
    } else {
      for (const f of flows)
        print(
          `${f.transfer_id}  ${f.status.padEnd(19)}  ${String(f.amount_cents).padStart(8)}¢  ${f.user_id}  ${f.created_at}${f.test_mode ? '  (sandbox)' : ''}${f.failure_reason ? `  ${f.failure_reason}` : ''}`,
        );
    }
    return true;
  }
  return false;
}

import type { AccountKind, LedgerService } from '../../src/domains/ledger/service.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

export interface LedgerFixture {
  t: TestApp;
  ledger: LedgerService;
  organizationId: string;
  /** Opens (or finds) an account of this organization's sandbox ledger. */
  account(kind: AccountKind, ownerId: string, livemode?: boolean): Promise<string>;
  /** Posts `amount` from the funding source into the account. */
  fund(accountId: string, amount: number): Promise<void>;
  available(accountId: string): Promise<number>;
  /** Fails the test with every violation when an invariant is broken. */
  expectSound(): Promise<void>;
  close(): Promise<void>;
}

let fundings = 0;

export async function startLedger(): Promise<LedgerFixture> {
  const t = await startTestApp();
  const ledger = t.ctx.ledger;
  const { organization_id: organizationId } = await t.createOrg();
  const account = async (kind: AccountKind, ownerId: string, livemode = false) =>
    (await ledger.account(t.ctx.db, { organizationId, livemode, kind, ownerId })).id;
  const source = await account('funding_source', organizationId);
  return {
    t,
    ledger,
    organizationId,
    account,
    async fund(accountId, amount) {
      const result = await ledger.move([
        {
          type: 'posted',
          id: `fund_${++fundings}`,
          debitAccountId: source,
          creditAccountId: accountId,
          amount,
          code: 'funding',
        },
      ]);
      if (!result.ok) throw new Error(`funding refused: ${result.code}`);
    },
    async available(accountId) {
      return (await ledger.balance(t.ctx.db, accountId)).available_cents;
    },
    async expectSound() {
      const violations = await ledger.verify();
      if (violations.length > 0)
        throw new Error(`ledger invariants broken:\n${JSON.stringify(violations, null, 2)}`);
    },
    close: () => t.close(),
  };
}

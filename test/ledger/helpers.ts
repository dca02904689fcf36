import { afterAll, beforeAll } from 'vitest';
import type { AccountKind, LedgerService } from '../../src/domains/ledger/service.ts';
import { type OrgApp, startOrgApp } from '../helpers/fixtures.ts';

/** An app with one organization (`OrgApp`) and steps on its ledger. */
export interface LedgerFixture extends OrgApp {
  ledger: LedgerService;
  organizationId: string;
  /** Opens (or finds) an account of this organization's sandbox ledger. */
  account(kind: AccountKind, ownerId: string, livemode?: boolean): Promise<string>;
  /** Posts `amount` from the funding source into the account. */
  fund(accountId: string, amount: number): Promise<void>;
  available(accountId: string): Promise<number>;
  /** Fails the test with every violation when an invariant is broken. */
  expectSound(): Promise<void>;
}

let fundings = 0;

export async function startLedger(target = {} as LedgerFixture): Promise<LedgerFixture> {
  const app = await startOrgApp({}, target);
  const { t } = app;
  const ledger = t.ctx.ledger;
  const organizationId = app.org.organization_id;
  const account = async (kind: AccountKind, ownerId: string, livemode = false) =>
    (await ledger.account(t.ctx.db, { organizationId, livemode, kind, ownerId })).id;
  const source = await account('funding_source', organizationId);
  const steps: Omit<LedgerFixture, keyof OrgApp> = {
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
  };
  return Object.assign(app, steps);
}

/**
 * The ledger app of a whole test file: started before all its tests, closed after them (when
 * `sound`, once the ledger proved its invariants).
 */
export function useLedger(options: { sound?: boolean } = {}): LedgerFixture {
  const fixture = {} as LedgerFixture;
  beforeAll(() => startLedger(fixture));
  afterAll(async () => {
    if (options.sound) await fixture.expectSound();
    await fixture.close();
  });
  return fixture;
}

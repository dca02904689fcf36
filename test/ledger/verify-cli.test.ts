import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { purser } from '../cli/process.ts';
import { useLedger } from './helpers.ts';

const f = useLedger();
let env: Record<string, string>;
beforeAll(async () => {
  env = {
    DATABASE_URL: f.t.ctx.config.databaseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
  };
});
it('purser ledger verify exits 0 on sound books and 1 naming each violation', async () => {
  const wallet = await f.account('user_wallet', 'usr_cli');
  const card = await f.account('card', 'card_cli');
  await f.fund(wallet, 1_000);
  await f.ledger.move([
    {
      type: 'posted',
      id: 'cli_spend',
      debitAccountId: wallet,
      creditAccountId: card,
      amount: 250,
      code: 'card_funding',
    },
  ]);

  const sound = await purser(['ledger', 'verify'], env);
  expect(sound.code).toBe(0);
  expect(sound.stdout).toContain('ledger ok');
  const soundJson = await purser(['ledger', 'verify', '--json'], env);
  expect(JSON.parse(soundJson.stdout)).toEqual({ ok: true, violations: [] });

  await f.t.ctx.db
    .updateTable('ledger_accounts')
    .set({ debits_posted: sql`debits_posted + 2000` })
    .where('id', '=', wallet)
    .execute();
  const broken = await purser(['ledger', 'verify', '--json'], env);
  expect(broken.code).toBe(1);
  const report = JSON.parse(broken.stdout);
  expect(report.ok).toBe(false);
  expect(report.violations).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ invariant: 'cached_totals', subject: wallet }),
      expect.objectContaining({ invariant: 'account_limit', subject: wallet }),
      expect.objectContaining({ invariant: 'double_entry' }),
    ]),
  );
  const text = await purser(['ledger', 'verify'], env);
  expect(text.code).toBe(1);
  expect(text.stdout).toContain(`cached_totals  ${wallet}`);
  await f.t.ctx.db
    .updateTable('ledger_accounts')
    .set({ debits_posted: sql`debits_posted - 2000` })
    .where('id', '=', wallet)
    .execute();
});

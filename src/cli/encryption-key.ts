import type { AppContext } from '../context.ts';
import { type Print, parse, UsageError } from '../core/args.ts';
import { SEALED_COLUMNS as IDEMPOTENT_ANSWERS } from '../core/idempotency.ts';
import {
  countSealedValues,
  type ResealFailure,
  resealColumn,
  type SealedColumn,
} from '../db/sealed-values.ts';
import { SEALED_COLUMNS as CARDHOLDERS } from '../domains/cards/cardholders.ts';
import { SEALED_COLUMNS as CARDS } from '../domains/cards/issuance.ts';
import { SEALED_COLUMNS as AUTHORIZATION_ENDPOINTS } from '../domains/cards/platform-authorization.ts';
import { SEALED_COLUMNS as CONNECT } from '../domains/connect/tokens.ts';
import { SEALED_COLUMNS as WEBHOOKS } from '../domains/events/endpoints.ts';
import { SEALED_COLUMNS as KYC } from '../domains/kyc/verifications.ts';
import { SEALED_COLUMNS as MERCHANT_LINKING } from '../domains/merchant-accounts/linking.ts';
import { SEALED_COLUMNS as MERCHANT_ACCOUNTS } from '../domains/merchant-accounts/service.ts';
import { SEALED_COLUMNS as MESSAGING } from '../domains/messaging/service.ts';
import { SEALED_COLUMNS as OUTBOX } from '../domains/notifications/service.ts';
import { SEALED_COLUMNS as ONBOARDING } from '../domains/onboarding/service.ts';
import { SEALED_COLUMNS as PLATFORM_CONNECT } from '../domains/platform-connect/service.ts';
import { SEALED_COLUMNS as MERCHANTS } from '../domains/purchases/merchant-config.ts';
import { SEALED_COLUMNS as RECEIPT_KEYS } from '../domains/receipts/service.ts';
import { SEALED_COLUMNS as VAULT_CARDS } from '../domains/vault/cards.ts';

export const ENCRYPTION_KEY_USAGE = `  encryption-key usage [--json]       values sealed under each key; exits 1 when one is under a key not set
  encryption-key reseal [--batch-size N]
                                      seal every value again under ENCRYPTION_KEY (resumable); exits 1
                                      when a value could not be opened or another key still seals one`;

/** Every column that holds sealed values, as the module that seals it declares it. */
const SEALED: SealedColumn[] = [
  ...AUTHORIZATION_ENDPOINTS,
  ...CARDHOLDERS,
  ...CARDS,
  ...CONNECT,
  ...IDEMPOTENT_ANSWERS,
  ...KYC,
  ...MERCHANT_ACCOUNTS,
  ...MERCHANT_LINKING,
  ...MERCHANTS,
  ...MESSAGING,
  ...ONBOARDING,
  ...OUTBOX,
  ...PLATFORM_CONNECT,
  ...RECEIPT_KEYS,
  ...VAULT_CARDS,
  ...WEBHOOKS,
];

type Role = 'current' | 'previous' | 'missing';
const ROLE_NAMES: Record<Role, string> = {
  current: 'ENCRYPTION_KEY',
  previous: 'ENCRYPTION_PREVIOUS_KEYS',
  missing: 'not set: cannot be opened',
};

/**
 * `purser encryption-key usage`: how many values each key of the ring (and any key outside it)
 * still seals, so that a previous key is dropped only once nothing needs it. False when argv is not
 * ours.
 */
export async function runEncryptionKeyCommand(
  ctx: AppContext,
  argv: string[],
  print: Print,
): Promise<boolean> {
  const [group, action, ...rest] = argv;
  if (group !== 'encryption-key') return false;
  if (action === 'reseal') {
    await reseal(ctx, rest, print);
    return true;
  }
  if (action !== 'usage') return false;
  const { values } = parse(rest, { json: { type: 'boolean' } });
  const counts = await countSealedValues(ctx.db, ctx.dialect);
  const [current, ...previous] = ctx.sealer.keyIds;
  const keys = [current as string, ...previous, ...counts.map((c) => c.keyId)]
    .filter((id, i, all) => all.indexOf(id) === i)
    .map((keyId) => {
      const role: Role = keyId === current ? 'current' : previous.includes(keyId) ? 'previous' : 'missing';
      const columns: Record<string, number> = {};
      for (const c of counts.filter((c) => c.keyId === keyId)) columns[`${c.table}.${c.column}`] = c.values;
      return { key_id: keyId, role, values: Object.values(columns).reduce((a, b) => a + b, 0), columns };
    });
  if (keys.some((k) => k.role === 'missing')) process.exitCode = 1;
  if (values.json) {
    print(JSON.stringify({ keys }, null, 2));
    return true;
  }
  for (const k of keys) {
    const where = Object.entries(k.columns).map(([column, n]) => `${column} ${n}`);
    print(
      `key ${k.key_id}  ${ROLE_NAMES[k.role].padEnd(26)} ${String(k.values).padStart(8)} values${where.length > 0 && k.role !== 'current' ? `  (${where.join(', ')})` : ''}`,
    );
  }
  for (const k of keys.filter((k) => k.role === 'previous')) {
    print(
      k.values === 0
        ? `No value is sealed under ${k.key_id}: it can be removed from ENCRYPTION_PREVIOUS_KEYS.`
        : `${k.key_id} still opens ${k.values} values: keep it in ENCRYPTION_PREVIOUS_KEYS.`,
    );
  }
  return true;
}

/**
 * `purser encryption-key reseal`: every value sealed under another key of the ring is sealed again
 * under ENCRYPTION_KEY, column by column, printing progress. Safe to stop and run again, and to run
 * while the service serves (docs/operations.md, Rotating keys): it ends by counting what any other
 * key still seals, which must be nothing before a previous key is removed.
 */
async function reseal(ctx: AppContext, argv: string[], print: Print): Promise<void> {
  const { values } = parse(argv, { 'batch-size': { type: 'string' } });
  const batchSize = Number(values['batch-size'] ?? 200);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
    throw new UsageError('--batch-size must be an integer from 1 to 10000');
  const current = ctx.sealer.keyId;
  print(`Re-sealing under ENCRYPTION_KEY ${current}.`);
  const failures: ResealFailure[] = [];
  let resealed = 0;
  for (const target of SEALED) {
    const name = `${target.table}.${target.column}`;
    const done = await resealColumn(ctx.db, ctx.sealer, target, {
      batchSize,
      progress: (n, total) => print(`${name}: ${n} of ${total}`),
    });
    resealed += done.resealed;
    failures.push(...done.failures);
  }
  print(`Re-sealed ${resealed} values under ${current}.`);
  for (const f of failures) {
    const key = Object.entries(f.key)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    print(`Could not open ${f.table}.${f.column} ${key} (under ${f.keyId}): ${f.reason}; left as it was.`);
  }
  const left = (await countSealedValues(ctx.db, ctx.dialect)).filter((c) => c.keyId !== current);
  for (const c of left) print(`Still under ${c.keyId}: ${c.table}.${c.column} ${c.values} values.`);
  if (failures.length > 0 || left.length > 0) {
    process.exitCode = 1;
    if (left.some((c) => !SEALED.some((t) => t.table === c.table && t.column === c.column)))
      print('A column above is not one reseal knows: declare it (SEALED_COLUMNS) where it is sealed.');
    print('Keep ENCRYPTION_PREVIOUS_KEYS until a run ends with nothing under another key.');
    return;
  }
  print('Nothing is sealed under another key: ENCRYPTION_PREVIOUS_KEYS can be emptied.');
}

import type { AppContext } from '../context.ts';
import { countSealedValues } from '../db/sealed-values.ts';
import { type Print, parse } from './args.ts';

export const ENCRYPTION_KEY_USAGE = `  encryption-key usage [--json]       values sealed under each key; exits 1 when one is under a key not set`;

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
  if (group !== 'encryption-key' || action !== 'usage') return false;
  const { values } = parse(rest, { json: { type: 'boolean' } });
  const counts = await countSealedValues(ctx.db, ctx.dialect);
  const [current, ...previous] = ctx.aead.keyIds;
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

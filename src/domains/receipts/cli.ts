import type { AppContext } from '../../context.ts';
import { type Print, parse } from '../../core/args.ts';

export const RECEIPT_KEYS_USAGE = `  keys rotate-receipts [--json]       a new key signs order receipts; the old one is retired (kept for
                                      verification until RECEIPT_KEY_RETENTION_DAYS later)
  keys list-receipts [--json]         the receipt-signing keys: current, retired (until when), expired`;

/** `purser keys rotate-receipts | list-receipts` (docs/mandates.md "Receipts"). False when argv is not ours. */
export async function runReceiptKeysCommand(ctx: AppContext, argv: string[], print: Print): Promise<boolean> {
  const [group, action, ...rest] = argv;
  if (group !== 'keys' || (action !== 'rotate-receipts' && action !== 'list-receipts')) return false;
  const { values } = parse(rest, { json: { type: 'boolean' } });
  if (action === 'list-receipts') {
    const keys = await ctx.receipts.keys();
    if (values.json) print(JSON.stringify({ keys }, null, 2));
    else if (keys.length === 0) print('No receipt key yet: the first receipt (or jwks.json) makes one.');
    else
      for (const key of keys)
        print(`${key.kid}  ${key.status}${key.expires_at ? `  expires ${key.expires_at}` : ''}`);
    return true;
  }
  const rotated = await ctx.receipts.rotate();
  if (values.json) {
    print(JSON.stringify(rotated, null, 2));
    return true;
  }
  print(`Receipts are now signed by ${rotated.kid}.`);
  for (const key of rotated.retired)
    print(`Retired ${key.kid}: it signs no more and verifies until ${key.expires_at}.`);
  return true;
}

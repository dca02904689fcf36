import { readFileSync } from 'node:fs';
import type { AppContext } from '../../context.ts';
import { type Print, parse, required, show, UsageError } from '../../core/args.ts';
import type { NewLinking } from '../merchant-accounts/index.ts';

export const MERCHANT_USAGE = `  merchant add --slug S --name N --acp-url URL (--api-key K | --api-key-file F)
               [--webhook-secret W | --webhook-secret-file F] [--countries US,CA] [--currency usd] [--mcc 5411] [--json]
               [--link-authorize-url URL --link-token-url URL --link-userinfo-url URL --link-client-id ID
                (--link-client-secret S | --link-client-secret-file F) [--link-scopes "a b"]]
                                      configure a production merchant reached over ACP (docs/acp.md);
                                      --link-…: it links cardholders' accounts (docs/merchant-accounts.md)
  merchant list [--json]              the configured merchants (never their keys)
  merchant remove SLUG                stop offering a configured merchant`;

/** `purser merchant …`: false when argv is not ours. */
export async function runMerchantCommand(ctx: AppContext, argv: string[], print: Print): Promise<boolean> {
  const [group, action, ...rest] = argv;
  if (group !== 'merchant') return false;
  const json = { type: 'boolean' } as const;
  const { merchants } = ctx;

  if (action === 'add') {
    const { values } = parse(rest, {
      slug: { type: 'string' },
      name: { type: 'string' },
      'acp-url': { type: 'string' },
      'api-key': { type: 'string' },
      'api-key-file': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'webhook-secret-file': { type: 'string' },
      countries: { type: 'string' },
      currency: { type: 'string' },
      mcc: { type: 'string' },
      'link-authorize-url': { type: 'string' },
      'link-token-url': { type: 'string' },
      'link-userinfo-url': { type: 'string' },
      'link-client-id': { type: 'string' },
      'link-client-secret': { type: 'string' },
      'link-client-secret-file': { type: 'string' },
      'link-scopes': { type: 'string' },
      json,
    });
    // A file keeps the credential out of the shell history and the process list.
    const secret = (inline: string | undefined, file: string | undefined, name: string) => {
      if (inline !== undefined && file !== undefined)
        throw new UsageError(`give --${name} or --${name}-file, not both`);
      return file !== undefined ? readFileSync(file, 'utf8').trim() : inline;
    };
    const apiKey = secret(values['api-key'], values['api-key-file'], 'api-key');
    const linking = linkingFlags(
      values,
      secret(values['link-client-secret'], values['link-client-secret-file'], 'link-client-secret'),
    );
    // Checked before the merchant is added: a bad flag leaves nothing half-configured.
    if (linking) ctx.merchantAccounts.checkLinking(linking);
    const added = await merchants.add({
      slug: required(values.slug, 'slug'),
      name: required(values.name, 'name'),
      acpUrl: required(values['acp-url'], 'acp-url'),
      apiKey: required(apiKey, 'api-key'),
      webhookSecret:
        secret(values['webhook-secret'], values['webhook-secret-file'], 'webhook-secret') ?? null,
      countries: values.countries?.split(',').filter((c) => c.trim() !== ''),
      currency: values.currency,
      mcc: values.mcc,
    });
    if (linking) await ctx.merchantAccounts.setLinking(added.id, linking);
    show(print, values.json, linking ? { ...added, account_linking: true } : added);
    return true;
  }

  if (action === 'list') {
    const { values } = parse(rest, { json });
    const list = await merchants.list();
    if (values.json) print(JSON.stringify(list, null, 2));
    else if (list.length === 0) print('No merchants configured (the sandbox merchants are built in).');
    else
      for (const m of list)
        print(
          `${m.slug.padEnd(20)}  ${m.name}  ${m.acp_url}  ${m.countries.join(',')} ${m.currency}${m.webhooks ? '  webhooks' : ''}`,
        );
    return true;
  }

  if (action === 'remove') {
    const { positionals } = parse(rest, {});
    const slug = required(positionals[0], 'SLUG');
    if (!(await merchants.remove(slug))) throw new UsageError(`no merchant ${slug}`);
    print(`Removed ${slug}.`);
    return true;
  }
  throw new UsageError(`unknown command: ${argv.join(' ')}`);
}

/** The `--link-…` flags: null when none is given; all of them (scopes aside) when any is. */
function linkingFlags(values: Record<string, unknown>, clientSecret: string | undefined): NewLinking | null {
  const given = Object.keys(values).some((name) => name.startsWith('link-') && values[name] !== undefined);
  if (!given) return null;
  const flag = (name: string) => required(values[`link-${name}`] as string | undefined, `link-${name}`);
  return {
    authorizeUrl: flag('authorize-url'),
    tokenUrl: flag('token-url'),
    userinfoUrl: flag('userinfo-url'),
    clientId: flag('client-id'),
    clientSecret: required(clientSecret, 'link-client-secret'),
    scopes: (values['link-scopes'] as string | undefined)?.split(' ').filter((s) => s !== ''),
  };
}

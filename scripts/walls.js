// The walls between the parts of src/ (docs/architecture.md, "Walls"), checked over the import graph,
// over the tables each file touches and over what store files declare. `node scripts/walls.js` prints
// every import, table use or declaration that breaks a rule, with the rule's reason;
// test/docs/architecture.test.ts fails `npm test` on any violation not in scripts/walls-allowed.txt,
// and on any entry there that no longer occurs (the list only shrinks).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Each rule: its name, why it exists, and whether an import (from → to, paths under src/) breaks it. */
export const RULES = [
  {
    name: 'front-door',
    reason:
      "a domain is entered by its front door, domains/<name>/index.ts: another domain's other files are its own business and may change without notice",
    breaks: (from, to) => {
      const a = domainOf(from);
      const b = domainOf(to);
      return a !== null && b !== null && a !== b && to !== `domains/${b}/index.ts`;
    },
  },
  {
    name: 'web-front-door',
    reason:
      "pages enter a domain by its front door, domains/<name>/index.ts, as other domains do: the domain's other files are its own business and may change without notice",
    breaks: (from, to) => {
      const b = domainOf(to);
      return from.startsWith('web/') && b !== null && to !== `domains/${b}/index.ts`;
    },
  },
  {
    name: 'no-upward',
    reason:
      'a domain never imports web/ or cli/: pages and commands are built on the domains, not the reverse (move what both need into the domain or core/)',
    breaks: (from, to) => domainOf(from) !== null && (to.startsWith('web/') || to.startsWith('cli/')),
  },
  {
    name: 'statuses-in-routes',
    reason:
      "a domain's services refuse with a Refusal (core/refusal.ts) carrying a code of the domain's union; only its routes (routes.ts, <part>-routes.ts, the auth guard) import core/errors.ts and decide HTTP statuses, in their one table of codes",
    breaks: (from, to) => domainOf(from) !== null && to === 'core/errors.ts' && !isHttpFile(from),
  },
  {
    name: 'routes-take-services',
    reason:
      'a route or page plugin takes the services and settings it uses as its options, named and typed, from app.ts: not the whole AppContext (context.ts), so what it can reach is what it is given',
    breaks: (from, to) => isRoutePlugin(from) && to === 'context.ts',
  },
  {
    name: 'core-below',
    reason: 'core/ is below every domain: it knows no domain, page or command',
    breaks: (from, to) =>
      from.startsWith('core/') &&
      (to.startsWith('domains/') || to.startsWith('web/') || to.startsWith('cli/')),
  },
];

/** A file of HTTP routes or pages: a domain's `routes.ts` or `<part>-routes.ts` (any depth), or anything in web/. */
function isRoutePlugin(path) {
  return (
    path.startsWith('web/') || (domainOf(path) !== null && /(^|-)routes\.ts$/.test(posix.basename(path)))
  );
}

/** `store.ts`, or `<part>-store.ts` where a domain keeps a part's queries apart. */
function isStoreFile(path) {
  return /(^|-)store\.ts$/.test(posix.basename(path));
}

/** The files of a domain that speak HTTP: its route plugins and the auth guard they run. */
function isHttpFile(path) {
  return /(^|-)routes\.ts$/.test(posix.basename(path)) || path === 'domains/auth/guard.ts';
}

function domainOf(path) {
  const match = /^domains\/([^/]+)\//.exec(path);
  return match ? match[1] : null;
}

/**
 * The owner of each table of src/db/schema.ts: a domain (only its store files, `store.ts` or
 * `<part>-store.ts` at any depth of its folder, touch the table) or the one file of core/, db/ or web/ that keeps it.
 */
export const TABLE_OWNERS = {
  rate_limit_logs: 'core/rate-limit.ts',
  idempotency_keys: 'core/idempotency.ts',
  instance_secrets: 'db/instance-secrets.ts',
  api_requests: 'web/request-log.ts',
  receipt_keys: 'receipts',
  order_receipts: 'receipts',
  organizations: 'orgs',
  embed_origins: 'orgs',
  clients: 'orgs',
  api_keys: 'orgs',
  access_tokens: 'auth',
  users: 'connect',
  connect_attempts: 'connect',
  connections: 'connect',
  refresh_tokens: 'connect',
  consents: 'connect',
  sent_messages: 'notifications',
  kyc_verifications: 'kyc',
  kyc_transitions: 'kyc',
  events: 'events',
  webhook_endpoints: 'events',
  webhook_deliveries: 'events',
  webhook_attempts: 'events',
  ledger_accounts: 'ledger',
  ledger_transfers: 'ledger',
  ledger_account_deltas: 'ledger',
  cardholders: 'cards',
  cards: 'cards',
  card_transactions: 'cards',
  user_spending_controls: 'cards',
  authorization_endpoints: 'cards',
  card_detail_reveals: 'cards',
  issuer_reconciliations: 'cards',
  company_wallets: 'funding',
  card_flows: 'funding',
  chain_addresses: 'funding',
  chain_transfers: 'funding',
  chain_deposits: 'funding',
  chain_cursors: 'funding',
  chain_returns: 'funding',
  chain_drifts: 'funding',
  oauth_codes: 'oauth',
  oauth_client_documents: 'oauth',
  buy_tokens: 'purchases',
  conversations: 'purchases',
  orders: 'purchases',
  checkout_authorizations: 'purchases',
  merchants: 'purchases',
  vault_sessions: 'vault',
  organization_vault_settings: 'vault',
  vault_passkeys: 'vault',
  passkey_resets: 'vault',
  webauthn_challenges: 'vault',
  vault_cards: 'vault',
  mandates: 'mandates',
  mandate_spends: 'mandates',
  wallet_links: 'wallet-links',
  wallet_link_settings: 'wallet-links',
  wallet_link_actions: 'wallet-links',
  cardholder_onboarding_sessions: 'onboarding',
  members: 'members',
  memberships: 'members',
  member_sign_ins: 'members',
  member_sessions: 'members',
  audit_log: 'members',
  platform_connect_sessions: 'platform-connect',
  organization_connections: 'platform-connect',
  merchant_account_linking: 'merchant-accounts',
  merchant_link_sessions: 'merchant-accounts',
  merchant_accounts: 'merchant-accounts',
  messaging_oauth_states: 'messaging',
  messaging_connections: 'messaging',
};

/** Each rule over table references: its name, its reason, and whether `from` breaks it by touching `table`. */
export const TABLE_RULES = [
  {
    name: 'table-owner',
    reason:
      "each table has one owning domain (scripts/walls.js, TABLE_OWNERS): another domain asks the owner's service through its front door, so the owner's rules and invariants hold on every write and its columns can change",
    breaks: (from, table) => {
      const owner = TABLE_OWNERS[table];
      if (owner === undefined) return false;
      return owner.includes('/') ? from !== owner : domainOf(from) !== owner;
    },
  },
  {
    name: 'store-only',
    reason:
      "only a domain's store files (store.ts, <part>-store.ts) touch its tables: services, routes and pages go through the store, so every query of a table is in one place",
    breaks: (from, table) =>
      domainOf(from) !== null && domainOf(from) === TABLE_OWNERS[table] && !isStoreFile(from),
  },
  {
    name: 'table-unowned',
    reason: 'every table of src/db/schema.ts has an owner in TABLE_OWNERS of scripts/walls.js: add one',
    breaks: (_from, table) => TABLE_OWNERS[table] === undefined,
  },
];

/** A class a file exports, by name (`export class CardStore`, `export default class Foo`). */
const EXPORTED_CLASS = /^export\s+(?:default\s+)?(?:abstract\s+)?class\s+(\w+)/gm;

/**
 * Each rule over a file's own text: its name, its reason, and what in the text of `from` breaks it
 * (names, shown after the arrow; none when the file keeps the rule).
 */
export const FILE_RULES = [
  {
    name: 'store-functions',
    reason:
      'a store is functions of the executor: each query an exported function taking the database or an open transaction first (`find(exec, id)`), what it needs of the dialect read from that executor (db/dialect.ts, `lockedOnPostgres`), so a store is imported and called, never built and handed around, and every store reads alike',
    breaks: (from, text) => (isStoreFile(from) ? [...text.matchAll(EXPORTED_CLASS)].map((m) => m[1]) : []),
  },
];

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

/** Every source file of src/ as `{path, text}`, its path relative to src/. */
export function sources() {
  const src = join(root, 'src');
  return sourceFiles(src).map((file) => ({
    path: relative(src, file).split('\\').join('/'),
    text: readFileSync(file, 'utf8'),
  }));
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/** Every relative import inside src/, as [from, to] paths relative to src/. */
export function importGraph(files = sources()) {
  const edges = [];
  for (const { path: from, text } of files) {
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3];
      if (!spec.startsWith('.')) continue;
      edges.push([from, posix.normalize(posix.join(posix.dirname(from), spec))]);
    }
  }
  return edges;
}

/** The tables of src/db/schema.ts (the `Database` interface). */
export function tables() {
  const schema = readFileSync(join(root, 'src/db/schema.ts'), 'utf8');
  const body = /export interface Database \{([\s\S]*?)\n\}/.exec(schema)?.[1] ?? '';
  return [...body.matchAll(/^\s+([a-z_]+):/gm)].map((match) => match[1]);
}

/** A table named by Kysely (`selectFrom('cards')`, `innerJoin('cards as c', …)`) or by SQL (`FROM cards`). */
const KYSELY_TABLE =
  /\b(?:selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|sql\.table)\(\s*['"]([a-z_]+)(?:\s+as\s+\w+)?['"]/g;
const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_]+)\b/g;

/** Every table a file of src/ touches (migrations and the table types aside), as [from, table]. */
export function tableUses(files = sources(), known = tables()) {
  const names = new Set(known);
  const uses = [];
  for (const { path, text } of files) {
    if (path.startsWith('db/migrations/') || path === 'db/schema.ts') continue;
    const touched = new Set();
    for (const match of text.matchAll(KYSELY_TABLE)) touched.add(match[1]);
    for (const match of text.matchAll(SQL_TABLE)) if (names.has(match[1])) touched.add(match[1]);
    for (const table of touched) if (names.has(table)) uses.push([path, table]);
  }
  return uses;
}

/**
 * Every import, table use or declaration that breaks a rule, as `rule from -> to` lines, sorted,
 * without repeats.
 */
export function violations(files = sources()) {
  const lines = new Set();
  for (const [from, to] of importGraph(files)) {
    for (const rule of RULES) if (rule.breaks(from, to)) lines.add(`${rule.name} ${from} -> ${to}`);
  }
  for (const [from, table] of tableUses(files)) {
    for (const rule of TABLE_RULES)
      if (rule.breaks(from, table)) lines.add(`${rule.name} ${from} -> ${table}`);
  }
  for (const table of tables()) {
    if (TABLE_OWNERS[table] === undefined) lines.add(`table-unowned db/schema.ts -> ${table}`);
  }
  for (const { path, text } of files) {
    for (const rule of FILE_RULES)
      for (const name of rule.breaks(path, text)) lines.add(`${rule.name} ${path} -> ${name}`);
  }
  return [...lines].sort();
}

/** The violations tolerated for now (scripts/walls-allowed.txt): each is work left, never a new one. */
export function allowed() {
  return readFileSync(join(root, 'scripts/walls-allowed.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * What breaks the walls beyond the allowed list (each with its rule's reason), and allowed entries
 * that no longer occur. `planted` files are checked as if they were in src/ (the test plants one).
 */
export function check(planted = []) {
  const found = violations([...sources(), ...planted]);
  const tolerated = new Set(allowed());
  const reasons = Object.fromEntries(
    [...RULES, ...TABLE_RULES, ...FILE_RULES].map((rule) => [rule.name, rule.reason]),
  );
  const fresh = found
    .filter((line) => !tolerated.has(line))
    .map((line) => `${line}\n    why: ${reasons[line.split(' ')[0]]}`);
  const present = new Set(found);
  const stale = [...tolerated].filter((line) => !present.has(line));
  return { found, fresh, stale };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { found, fresh, stale } = check();
  if (process.argv.includes('--all')) for (const line of found) console.log(line);
  for (const line of fresh) console.log(`new violation: ${line}`);
  for (const line of stale) console.log(`fixed, remove from scripts/walls-allowed.txt: ${line}`);
  console.log(`${found.length} violations, ${found.length - fresh.length} allowed for now`);
  process.exitCode = fresh.length > 0 || stale.length > 0 ? 1 : 0;
}

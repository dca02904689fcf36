import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { check, FILE_RULES, RULES, TABLE_OWNERS, TABLE_RULES, tables } from '../../scripts/walls.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('docs/architecture.md', () => {
  it('maps every domain folder', () => {
    const map = readFileSync(`${ROOT}docs/architecture.md`, 'utf8');
    const folders = readdirSync(`${ROOT}src/domains`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(0);
    const missing = folders.filter((name) => !map.includes(`| \`${name}\` |`));
    expect(missing, 'add a row to the "Map of the domains" table of docs/architecture.md').toEqual([]);
  });
});

describe('the walls (scripts/walls.js)', () => {
  it('no import breaks a wall beyond scripts/walls-allowed.txt', () => {
    const { fresh } = check();
    expect(fresh, `imports that break the walls:\n${fresh.join('\n')}`).toEqual([]);
  });

  it('gives every domain a front door, domains/<name>/index.ts', () => {
    const doorless = readdirSync(`${ROOT}src/domains`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .filter((name) => !readdirSync(`${ROOT}src/domains/${name}`).includes('index.ts'));
    expect(doorless, 'add index.ts exporting what other domains may use').toEqual([]);
  });

  it('lists as allowed only violations that still occur (the list only shrinks)', () => {
    const { stale } = check();
    expect(stale, 'fixed: remove these lines from scripts/walls-allowed.txt').toEqual([]);
  });

  it('breaks on what the rules forbid and only on that', () => {
    const broken = (from: string, to: string) =>
      RULES.filter((rule) => rule.breaks(from, to)).map((rule) => rule.name);
    expect(broken('domains/cards/service.ts', 'domains/orgs/store.ts')).toEqual(['front-door']);
    expect(broken('domains/cards/service.ts', 'domains/orgs/index.ts')).toEqual([]);
    expect(broken('domains/cards/service.ts', 'domains/cards/store.ts')).toEqual([]);
    expect(broken('domains/cards/routes.ts', 'web/html.ts')).toEqual(['no-upward']);
    expect(broken('domains/cards/cli.ts', 'cli/args.ts')).toEqual(['no-upward']);
    expect(broken('core/errors.ts', 'domains/cards/index.ts')).toEqual(['core-below']);
    expect(broken('web/console/kit.ts', 'core/money.ts')).toEqual([]);
    expect(broken('web/oauth/pages.ts', 'domains/mandates/terms.ts')).toEqual(['web-front-door']);
    expect(broken('web/oauth/pages.ts', 'domains/mandates/index.ts')).toEqual([]);
    expect(broken('web/oauth/pages.ts', 'web/mandates/terms.ts')).toEqual([]);
    expect(broken('domains/cards/routes.ts', 'context.ts')).toEqual(['routes-take-services']);
    expect(broken('domains/cards/lithic/routes.ts', 'context.ts')).toEqual(['routes-take-services']);
    expect(broken('domains/purchases/acp-webhook-routes.ts', 'context.ts')).toEqual(['routes-take-services']);
    expect(broken('web/console/pages/cards.ts', 'context.ts')).toEqual(['routes-take-services']);
    expect(broken('domains/cards/cli.ts', 'context.ts')).toEqual([]);
    expect(broken('app.ts', 'context.ts')).toEqual([]);
  });

  it('fails on a planted violation, naming the rule and its reason', () => {
    const planted = [
      {
        path: 'domains/cards/service.ts',
        text:
          "import { x } from '../orgs/store.ts';\nimport { y } from '../../web/html.ts';\n" +
          "await db.updateTable('organizations').set({ name }).execute();\n" +
          'await sql`SELECT id FROM cards`.execute(db);\n',
      },
    ];
    const { fresh } = check(planted);
    const reasonOf = (name: string) => [...RULES, ...TABLE_RULES].find((rule) => rule.name === name)?.reason;
    expect(fresh).toEqual([
      `front-door domains/cards/service.ts -> domains/orgs/store.ts\n    why: ${reasonOf('front-door')}`,
      `no-upward domains/cards/service.ts -> web/html.ts\n    why: ${reasonOf('no-upward')}`,
      `store-only domains/cards/service.ts -> cards\n    why: ${reasonOf('store-only')}`,
      `table-owner domains/cards/service.ts -> organizations\n    why: ${reasonOf('table-owner')}`,
    ]);
  });

  it('fails on a page that imports a domain past its front door', () => {
    const planted = [
      {
        path: 'web/oauth/pages.ts',
        text: "import type { MandateTerms } from '../../domains/mandates/terms.ts';\n",
      },
    ];
    const reason = RULES.find((rule) => rule.name === 'web-front-door')?.reason;
    expect(check(planted).fresh).toEqual([
      `web-front-door web/oauth/pages.ts -> domains/mandates/terms.ts\n    why: ${reason}`,
    ]);
  });

  it('fails on a route plugin that takes the whole AppContext', () => {
    const planted = [
      { path: 'domains/orgs/routes.ts', text: "import type { AppContext } from '../../context.ts';\n" },
    ];
    const reason = RULES.find((rule) => rule.name === 'routes-take-services')?.reason;
    expect(check(planted).fresh).toEqual([
      `routes-take-services domains/orgs/routes.ts -> context.ts\n    why: ${reason}`,
    ]);
  });

  it('fails on a store built as a class, and only on a store', () => {
    const classOf = (name: string) =>
      `export class ${name} {\n  constructor(private readonly dialect: Dialect) {}\n}\n`;
    const planted = [
      { path: 'domains/orgs/invites-store.ts', text: classOf('InviteStore') },
      { path: 'domains/orgs/store.ts', text: `export function find() {}\n${classOf('OrgStore')}` },
      { path: 'domains/orgs/service.ts', text: classOf('OrgService') },
      { path: 'domains/orgs/keys-store.ts', text: 'export async function keys(exec: Executor) {}\n' },
    ];
    const reason = FILE_RULES.find((rule) => rule.name === 'store-functions')?.reason;
    expect(reason).toMatch(/^a store is functions of the executor: /);
    expect(check(planted).fresh).toEqual([
      `store-functions domains/orgs/invites-store.ts -> InviteStore\n    why: ${reason}`,
      `store-functions domains/orgs/store.ts -> OrgStore\n    why: ${reason}`,
    ]);
  });

  it('gives every table one owner, and lets only its store files touch it', () => {
    expect(tables().filter((table) => TABLE_OWNERS[table] === undefined)).toEqual([]);
    const broken = (from: string, table: string) =>
      TABLE_RULES.filter((rule) => rule.breaks(from, table)).map((rule) => rule.name);
    expect(broken('domains/cards/store.ts', 'cards')).toEqual([]);
    expect(broken('domains/funding/chain/store.ts', 'chain_cursors')).toEqual([]);
    expect(broken('domains/events/delivery-store.ts', 'webhook_deliveries')).toEqual([]);
    expect(broken('domains/events/delivery.ts', 'webhook_deliveries')).toEqual(['store-only']);
    expect(broken('domains/cards/service.ts', 'cards')).toEqual(['store-only']);
    expect(broken('domains/cards/store.ts', 'organizations')).toEqual(['table-owner']);
    expect(broken('domains/platform-connect/service.ts', 'memberships')).toEqual(['table-owner']);
    expect(broken('web/console/store.ts', 'orders')).toEqual(['table-owner']);
    expect(broken('core/idempotency.ts', 'idempotency_keys')).toEqual([]);
    expect(broken('domains/cards/store.ts', 'idempotency_keys')).toEqual(['table-owner']);
    expect(broken('domains/cards/store.ts', 'no_such_table')).toEqual(['table-unowned']);
  });
});

/**
 * Rooms of a livable size (issue 26): a source file past 600 lines, or a service past about 500,
 * has outgrown one idea; split it along a real seam and keep the old file as the door. Table types
 * (db/schema.ts), migrations and generated files are long by nature and exempt.
 */
const SOURCE_MAX_LINES = 600;
const SERVICE_MAX_LINES = 520;
const EXEMPT = [/^db\/schema\.ts$/, /^db\/migrations\//];
const GENERATED = /^\/\/ (Generated|@generated)|^\/\* (Generated|@generated)/;

function oversized(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => {
    if (EXEMPT.some((pattern) => pattern.test(path)) || GENERATED.test(text)) return [];
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const max = path.endsWith('/service.ts') ? SERVICE_MAX_LINES : SOURCE_MAX_LINES;
    return lines > max ? [`${path}: ${lines} lines (at most ${max})`] : [];
  });
}

describe('rooms of a livable size', () => {
  it(`keeps every source file under src/ to ${SOURCE_MAX_LINES} lines and every service.ts to ${SERVICE_MAX_LINES}`, () => {
    const src = `${ROOT}src`;
    const files = readdirSync(src, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.[cm]?[jt]s$/.test(entry.name))
      .map((entry) => {
        const full = `${entry.parentPath}/${entry.name}`;
        return { path: relative(src, full).replaceAll('\\', '/'), text: readFileSync(full, 'utf8') };
      });
    expect(files.length).toBeGreaterThan(100);
    expect(oversized(files), 'split these along a real seam; the file stays the door').toEqual([]);
  });

  it('names a file past its limit and spares the named exceptions', () => {
    const lines = (n: number) => 'x;\n'.repeat(n);
    expect(
      oversized([
        { path: 'domains/cards/network.ts', text: lines(601) },
        { path: 'domains/cards/objects.ts', text: lines(600) },
        { path: 'domains/kyc/service.ts', text: lines(521) },
        { path: 'domains/orgs/service.ts', text: lines(520) },
        { path: 'db/schema.ts', text: lines(1400) },
        { path: 'db/migrations/0001_initial.ts', text: lines(900) },
        { path: 'web/sdk-types.ts', text: `// Generated by npm run sdk:generate\n${lines(900)}` },
      ]),
    ).toEqual([
      'domains/cards/network.ts: 601 lines (at most 600)',
      'domains/kyc/service.ts: 521 lines (at most 520)',
    ]);
  });
});

describe('one hosted-page layout', () => {
  it('writes a <style> element only in the shared documents (core/html.ts, web/html.ts)', () => {
    const src = `${ROOT}src`;
    const styled = readdirSync(src, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(src, `${entry.parentPath}/${entry.name}`).replaceAll('\\', '/'))
      .filter((path) => readFileSync(`${src}/${path}`, 'utf8').includes('<style'));
    styled.sort();
    expect(
      styled,
      'pages use htmlDocument (core/html.ts) or referenceDocument (web/html.ts) and add their own rules as `style`',
    ).toEqual(['core/html.ts', 'web/html.ts']);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { check, RULES } from '../../scripts/walls.js';

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
  });
});

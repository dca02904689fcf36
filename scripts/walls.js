// The walls between the parts of src/ (docs/architecture.md, "Walls"), checked over the import graph.
// `node scripts/walls.js` prints every import that breaks a rule, with the rule's reason; the unit test
// test/architecture/walls.test.ts fails `npm test` on any violation not in scripts/walls-allowed.txt,
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
    name: 'no-upward',
    reason:
      'a domain never imports web/ or cli/: pages and commands are built on the domains, not the reverse (move what both need into the domain or core/)',
    breaks: (from, to) => domainOf(from) !== null && (to.startsWith('web/') || to.startsWith('cli/')),
  },
  {
    name: 'core-below',
    reason: 'core/ is below every domain: it knows no domain, page or command',
    breaks: (from, to) =>
      from.startsWith('core/') &&
      (to.startsWith('domains/') || to.startsWith('web/') || to.startsWith('cli/')),
  },
];

function domainOf(path) {
  const match = /^domains\/([^/]+)\//.exec(path);
  return match ? match[1] : null;
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/** Every relative import inside src/, as [from, to] paths relative to src/. */
export function importGraph() {
  const src = join(root, 'src');
  const edges = [];
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3];
      if (!spec.startsWith('.')) continue;
      const from = relative(src, file).split('\\').join('/');
      const to = posix.normalize(posix.join(posix.dirname(from), spec));
      edges.push([from, to]);
    }
  }
  return edges;
}

/** Every import that breaks a rule, as `rule from -> to` lines, sorted, without repeats. */
export function violations() {
  const lines = new Set();
  for (const [from, to] of importGraph()) {
    for (const rule of RULES) if (rule.breaks(from, to)) lines.add(`${rule.name} ${from} -> ${to}`);
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

/** What breaks the walls beyond the allowed list, and allowed entries that no longer occur. */
export function check() {
  const found = violations();
  const tolerated = new Set(allowed());
  const reasons = Object.fromEntries(RULES.map((rule) => [rule.name, rule.reason]));
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

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NAME = '[A-Z][A-Z0-9_]*';

/** The code that runs in production: the service, the command's entry and what it loads first. */
function productionFiles(): string[] {
  return ['src', 'bin', 'scripts'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      .map((entry) => join(entry.parentPath, entry.name)),
  );
}

/**
 * Every environment variable the code names where it reads the environment: `process.env.X`,
 * `env.X` and `env['X']`, the reading helpers' `(env, 'X', …)`, and, in a module that is handed the
 * environment (`env: Env`), every string that is a variable's name (names kept in lists and passed
 * to local helpers).
 */
function variablesNamedInCode(): Map<string, string> {
  const found = new Map<string, string>();
  const patterns = [
    new RegExp(`\\benv(?:\\?)?\\.(${NAME})\\b`, 'g'),
    new RegExp(`\\benv\\[\\s*['"\`](${NAME})['"\`]\\s*\\]`, 'g'),
    new RegExp(`\\(\\s*env\\s*,\\s*['"](${NAME})['"]`, 'g'),
  ];
  for (const file of productionFiles()) {
    const code = readFileSync(file, 'utf8');
    const handedTheEnvironment = /\benv: Env\b/.test(code);
    for (const pattern of handedTheEnvironment
      ? [...patterns, new RegExp(`['"](${NAME})['"]`, 'g')]
      : patterns) {
      for (const match of code.matchAll(pattern)) {
        const name = match[1] as string;
        if (name.length > 2 && !found.has(name)) found.set(name, relative(ROOT, file));
      }
    }
  }
  return found;
}

/** Every variable loadConfig reads from an environment that sets none (computed names included). */
function variablesReadByConfig(): Set<string> {
  const read = new Set<string>();
  const environment = new Proxy({} as Record<string, string | undefined>, {
    get(_target, key) {
      if (typeof key === 'string') read.add(key);
      return undefined;
    },
  });
  loadConfig(environment);
  return read;
}

/** The names in the first column of the tables under "## Environment variables". */
function variablesDocumented(): Set<string> {
  const page = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
  const section = /^## Environment variables\n([\s\S]*?)(?=^## )/m.exec(page)?.[1] ?? '';
  const names = new Set<string>();
  for (const row of section.split('\n').filter((line) => line.startsWith('| `'))) {
    const firstCell = row.split('|')[1] ?? '';
    for (const match of firstCell.matchAll(new RegExp(`\`(${NAME})\``, 'g'))) names.add(match[1] as string);
  }
  return names;
}

describe('docs/operations.md lists every environment variable', () => {
  it('documents each variable the service reads', () => {
    const documented = variablesDocumented();
    const undocumented = [...variablesNamedInCode()]
      .filter(([name]) => !documented.has(name))
      .map(([name, file]) => `${name} (${file})`);
    expect(undocumented).toEqual([]);
    const readByConfig = [...variablesReadByConfig()];
    expect(readByConfig).toContain('DATABASE_URL');
    expect(readByConfig.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('documents no variable the service does not read', () => {
    const named = variablesNamedInCode();
    expect([...variablesDocumented()].filter((name) => !named.has(name))).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { DIALECT, matches, SLOW, testFiles, UNIT } from './projects.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const files = testFiles(root, ['test', 'packages/sdk/test']);

it('runs every test written for PostgreSQL alone in the PostgreSQL run', () => {
  const postgresOnly = files.filter((file) =>
    /\b(runIf\(onPostgres\)|skipIf\(!onPostgres\))/.test(readFileSync(`${root}/${file}`, 'utf8')),
  );
  expect(postgresOnly.length).toBeGreaterThan(0);
  expect(postgresOnly.filter((file) => !matches(DIALECT, file))).toEqual([]);
});

it('names only test files and folders that exist (a renamed file leaves no stale entry)', () => {
  const stale = [...SLOW, ...UNIT, ...DIALECT].filter(
    (entry) => !files.some((file) => matches([entry], file)),
  );
  expect(stale).toEqual([]);
});

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { startTestApp } from '../helpers/harness.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'purser-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** Redocly CLI's `recommended` rules over the served document: a client's linter finds no error. */
it('passes `redocly lint` (recommended rules) with no error', async () => {
  const t = await startTestApp();
  const document = join(dir, 'openapi.json');
  try {
    writeFileSync(document, (await t.call('GET', '/api/v2/openapi.json')).body);
  } finally {
    await t.close();
  }
  const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
  // Offline: no telemetry, no update check (CI has no route to Redocly).
  const { stdout } = await run(
    process.execPath,
    [cli, 'lint', '--extends', 'recommended', '--format', 'json', document],
    { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
  ).catch((failure: { stdout: string }) => failure);
  const report = JSON.parse(stdout) as LintReport;
  const errors = report.problems
    .filter((problem) => problem.severity === 'error')
    .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
  expect(errors).toEqual([]);
  expect(report.totals.errors).toBe(0);
}, 120_000);

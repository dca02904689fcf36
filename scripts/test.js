// `npm test`: the types, the lint, the whole suite on SQLite, then, when TEST_DATABASE_URL is set,
// the files whose behaviour depends on the database again on PostgreSQL (test/projects.ts, DIALECT).
// It stops at the first step that fails, and ends with the time of each step and of each vitest
// project (test/reporters/timing.ts). Arguments go to both vitest runs (`npm test -- test/ledger/`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const scratch = mkdtempSync(join(tmpdir(), 'purser-test-times-'));

const steps = [
  { name: 'types', command: ['npm', 'run', 'typecheck'] },
  { name: 'lint', command: ['npx', 'biome', 'check', '.'] },
  { name: 'suite on SQLite', command: ['npx', 'vitest', 'run', ...args], times: true },
];
if (process.env.TEST_DATABASE_URL) {
  steps.push({
    name: 'suite on PostgreSQL',
    command: ['node', 'test/run-postgres.js', ...args],
    times: true,
  });
} else {
  console.log('TEST_DATABASE_URL is not set: the PostgreSQL run is skipped.');
}

const done = [];
let status = 0;
for (const [index, step] of steps.entries()) {
  const timesFile = step.times ? join(scratch, `${index}.json`) : undefined;
  const started = performance.now();
  const result = spawnSync(step.command[0], step.command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, ...(timesFile ? { PURSER_TEST_TIMES: timesFile } : {}) },
  });
  status = result.status ?? 1;
  done.push({ ...step, seconds: (performance.now() - started) / 1000, status, timesFile });
  if (status !== 0) break;
}

console.log('\nnpm test, step by step:');
for (const step of done) {
  console.log(
    `  ${step.name.padEnd(22)} ${step.seconds.toFixed(1).padStart(7)} s${step.status ? '  FAILED' : ''}`,
  );
  const times = step.timesFile ? readTimes(step.timesFile) : undefined;
  for (const project of times?.projects ?? []) {
    console.log(
      `    ${project.project.padEnd(6)} ${String(project.files).padStart(4)} files ${String(project.tests).padStart(5)} tests` +
        `  wall ${(project.wallMs / 1000).toFixed(1).padStart(6)} s  busy ${(project.busyMs / 1000).toFixed(1).padStart(6)} s`,
    );
  }
}
const total = done.reduce((sum, step) => sum + step.seconds, 0);
console.log(`  ${'total'.padEnd(22)} ${total.toFixed(1).padStart(7)} s`);
rmSync(scratch, { recursive: true, force: true });
process.exit(status);

function readTimes(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

// `npm run test:postgres`: the files whose behaviour depends on the database (test/projects.ts,
// DIALECT) on PostgreSQL, when TEST_DATABASE_URL is set. `npm test` runs it after the SQLite run.
import { spawnSync } from 'node:child_process';

if (!process.env.TEST_DATABASE_URL) {
  console.log('TEST_DATABASE_URL is not set: skipping the PostgreSQL run.');
  process.exit(0);
}
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, PURSER_TEST_POSTGRES: '1', PURSER_TEST_DIALECT_ONLY: '1' },
});
process.exit(result.status ?? 1);

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { byProject, DIALECT, matches, testFiles } from './test/projects.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const all = testFiles(root, ['test', 'packages/sdk/test']);
// `npm test`'s PostgreSQL run sets PURSER_TEST_DIALECT_ONLY: it repeats only the files whose behaviour
// depends on the database (test/projects.ts). Without it, every file runs, on either database.
const dialectOnly = process.env.PURSER_TEST_DIALECT_ONLY === '1';
const files = byProject(dialectOnly ? all.filter((file) => matches(DIALECT, file)) : all);

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Two files at a time: the machine's two cores (vitest's default leaves one idle), and much of a
    // slow file's time is spent waiting on the processes, browsers and chains it drives.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/reporters/timing.ts'],
    // Worker processes are reused from file to file (the pool's isolation is one setting for all
    // projects), and each project says whether a file starts from freshly evaluated modules: `unit` and
    // `api` files share them (the tree is imported once per worker), `slow` files (processes, browsers,
    // OCR, chains) each evaluate the tree anew. Every file still has a database of its own. A project
    // with no file is left out.
    isolate: false,
    projects: [
      { name: 'unit', include: files.unit, isolate: false },
      { name: 'api', include: files.api, isolate: false },
      { name: 'slow', include: files.slow, isolate: true },
    ]
      .filter((project) => project.include.length > 0)
      .map((project) => ({ extends: true, test: project })),
  },
});

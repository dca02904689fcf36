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
    // Worker processes are reused from file to file, and files share their evaluated modules (the tree
    // is imported once per worker, not once per file: 22 s of the `slow` project's wall time). Every
    // file still has a database of its own, and closes what it starts (apps, readers, browsers,
    // processes) in its afterAll. A project with no file is left out.
    isolate: false,
    projects: [
      { name: 'unit', include: files.unit, isolate: false },
      { name: 'api', include: files.api, isolate: false },
      // OCR, browsers and spawned processes share two cores with each other: on a loaded machine a
      // test reading several documents took 11 s alone and over 30 s beside the others (CI, 2026-11-28).
      { name: 'slow', include: files.slow, isolate: false, testTimeout: 90_000, hookTimeout: 90_000 },
    ]
      .filter((project) => project.include.length > 0)
      .map((project) => ({ extends: true, test: project })),
  },
});

/**
 * Prints, after a run, how long each vitest project took (test/projects.ts): files, tests, the wall
 * time from its first file queued to its last finished (projects run side by side, so these overlap),
 * and the busy time its files spent in workers (import, setup and tests). With `PURSER_TEST_TIMES`
 * set to a file path it also writes those figures and every file's own, as JSON, for the run's
 * summary (scripts/test.js) and for finding where time goes.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface ProjectTime {
  project: string;
  files: number;
  tests: number;
  failed: number;
  wallMs: number;
  busyMs: number;
}

export interface FileTime {
  file: string;
  project: string;
  tests: number;
  /** Importing the file and what it imports. */
  collectMs: number;
  /** Its tests and hooks (app starts included). */
  testsMs: number;
}

export interface RunTimes {
  wallMs: number;
  projects: ProjectTime[];
  files: FileTime[];
}

export default class TimingReporter implements Reporter {
  private started = performance.now();
  private readonly queued = new Map<string, number>();
  private readonly ended = new Map<string, number>();

  onTestRunStart(): void {
    this.started = performance.now();
  }

  onTestModuleQueued(module: TestModule): void {
    const name = module.project.name;
    if (!this.queued.has(name)) this.queued.set(name, performance.now());
  }

  onTestModuleEnd(module: TestModule): void {
    this.ended.set(module.project.name, performance.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const times = this.summarize(modules);
    printTable(times);
    const target = process.env.PURSER_TEST_TIMES;
    if (target) writeFileSync(target, `${JSON.stringify(times, null, 2)}\n`);
  }

  private summarize(modules: ReadonlyArray<TestModule>): RunTimes {
    const files = modules.map((module): FileTime => {
      const diagnostic = module.diagnostic();
      return {
        file: relative(process.cwd(), module.moduleId),
        project: module.project.name,
        tests: [...module.children.allTests()].length,
        collectMs: Math.round(
          diagnostic.prepareDuration + diagnostic.collectDuration + diagnostic.setupDuration,
        ),
        testsMs: Math.round(diagnostic.duration),
      };
    });
    const names = [...new Set(files.map((file) => file.project))].sort();
    const projects = names.map((project): ProjectTime => {
      const own = modules.filter((module) => module.project.name === project);
      const ownFiles = files.filter((file) => file.project === project);
      return {
        project,
        files: own.length,
        tests: ownFiles.reduce((sum, file) => sum + file.tests, 0),
        failed: own.reduce((sum, module) => sum + [...module.children.allTests('failed')].length, 0),
        wallMs: Math.round((this.ended.get(project) ?? 0) - (this.queued.get(project) ?? 0)),
        busyMs: ownFiles.reduce((sum, file) => sum + file.collectMs + file.testsMs, 0),
      };
    });
    return { wallMs: Math.round(performance.now() - this.started), projects, files };
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function printTable(times: RunTimes, title = 'Time per project'): void {
  if (times.projects.length === 0) return;
  const rows = times.projects.map((p) => [
    p.project,
    String(p.files),
    p.failed ? `${p.tests} (${p.failed} failed)` : String(p.tests),
    seconds(p.wallMs),
    seconds(p.busyMs),
  ]);
  const header = ['project', 'files', 'tests', 'wall', 'busy in workers'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  process.stdout.write(
    `\n${title} (whole run ${seconds(times.wallMs)}):\n  ${line(header)}\n${rows.map((row) => `  ${line(row)}\n`).join('')}`,
  );
}

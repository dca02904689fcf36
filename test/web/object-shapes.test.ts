import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const PROBE = new URL('../fixtures/shapes/probe.ts', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'purser-shapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * V8 keeps at most 1,536 transitions from the empty object's shape. When startup used them up, each
 * request's headers object (built up from `{}` by Node) got shapes of its own until a full
 * collection, and the process served at about 1.6 × the CPU a request (docs/benchmarks.md, "The
 * empty object's transitions"). A built app must leave most of them free.
 */
describe('the shapes of objects built up from {}', () => {
  it('are still shared after the whole app is built, with room for hundreds more property names', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', PROBE],
      {
        env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'shapes.db')}` },
      },
    );
    const { room } = JSON.parse(stdout.trim().split('\n').at(-1) as string) as { room: number };
    expect(room).toBeGreaterThanOrEqual(300);
  });
});

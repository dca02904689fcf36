import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A new directory in the system's temporary one for a bench's database, removed when the process
 * exits (at its end, or by `process.exit` as the servers' roles do on SIGTERM): a bench's SQLite
 * files take 10 MB to 200 MB, and every run used to leave them behind.
 */
export function benchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

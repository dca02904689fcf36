// Where the compiled service lives and whether it is current: shared by bin/purser.js (which runs it),
// scripts/build.js (which makes it) and the tests (which spawn it). Plain JavaScript: it runs before
// anything could compile TypeScript.
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SOURCE = fileURLToPath(new URL('../src', import.meta.url));
export const DIST = fileURLToPath(new URL('../dist', import.meta.url));
/** The compiled process entry: what `node bin/purser.js` runs once the build is current. */
export const COMPILED_ENTRY = fileURLToPath(new URL('../dist/main.js', import.meta.url));
/** Written last by a build that completed; its time is the time of the sources it compiled. */
export const STAMP = fileURLToPath(new URL('../dist/.built', import.meta.url));

/** The latest change under `dir`: files and directories both, so a deleted or renamed file counts too. */
function latestChange(dir) {
  let latest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = `${entry.parentPath ?? entry.path}/${entry.name}`;
    latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * `current`: dist/ holds a completed build and no source changed after it (or there are no sources,
 * as in a deployment that ships dist/ alone). `stale`: built, but src/ changed since. `absent`: never
 * built here.
 */
export function buildState() {
  let built;
  try {
    built = statSync(STAMP).mtimeMs;
  } catch {
    return 'absent';
  }
  let changed;
  try {
    changed = latestChange(SOURCE);
  } catch {
    return 'current';
  }
  return changed <= built ? 'current' : 'stale';
}

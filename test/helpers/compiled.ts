/**
 * The compiled service (dist/, `npm run build`), for tests that start processes. The suite's global
 * setup (test/global-setup.ts) compiles it before any test runs whenever it is missing or older than
 * src/, so a test spawning `node bin/purser.js …` runs the compiled JavaScript, as production does,
 * without tsx's start-up cost. A test may also spawn the entry itself: `node <COMPILED_ENTRY> serve`.
 */
import { buildState, COMPILED_ENTRY } from '../../scripts/dist.js';

export { COMPILED_ENTRY };

/** dist/main.js, after checking that it is current with src/ (it is unless a source changed mid-run). */
export function compiledEntry(): string {
  const state = buildState();
  if (state !== 'current') throw new Error(`the compiled service is ${state}: run \`npm run build\``);
  return COMPILED_ENTRY;
}

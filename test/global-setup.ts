import { ensureBuilt } from '../scripts/build.js';

/** Once per run, before any test: compile src/ when dist/ is missing or older (test/helpers/compiled.ts). */
export default async function setup(): Promise<void> {
  await ensureBuilt();
}

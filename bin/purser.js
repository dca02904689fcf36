#!/usr/bin/env node
// The `purser` command. It runs the compiled service (dist/, made by `npm run build` and by
// `npm install`). In a development checkout whose dist/ is missing or older than src/, it runs the
// TypeScript source through tsx's loader instead, so an edit takes effect without a build; with
// NODE_ENV=production it never does: production runs only compiled JavaScript.
import { pathToFileURL } from 'node:url';
import { buildState, COMPILED_ENTRY } from '../scripts/dist.js';

const state = buildState();
if (state === 'current') {
  await import(pathToFileURL(COMPILED_ENTRY).href);
} else if (process.env.NODE_ENV === 'production') {
  process.stderr.write(
    `purser: ${state === 'absent' ? 'the service is not compiled' : 'dist/ is older than src/'}; ` +
      'run `npm run build` (NODE_ENV=production runs only the compiled service)\n',
  );
  process.exit(1);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write(
      'purser: the service is not compiled and tsx is not installed; run `npm run build`\n',
    );
    process.exit(1);
  }
  register();
  await import('../src/main.ts');
}

// `npm run build`: compiles src/ to ESM JavaScript with type declarations in dist/, what the package
// exports. schema.d.ts (generated from the OpenAPI document) is types only, so it is copied as it is.
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const at = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(at('dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', at('tsconfig.build.json')], { stdio: 'inherit' });
copyFileSync(at('src/schema.d.ts'), at('dist/schema.d.ts'));

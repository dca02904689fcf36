// `npm run build`: compiles src/ to ESM JavaScript with type declarations in dist/, what the package
// exports. schema.d.ts (generated from the OpenAPI document) is types only, so it is copied as it is.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const at = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // An install without devDependencies (`npm ci --omit=dev`) keeps a dist/ built earlier.
  if (existsSync(at('dist/index.js'))) process.exit(0);
  process.stderr.write(
    'build: typescript is not installed; install with devDependencies (npm ci), then build\n',
  );
  process.exit(1);
}
rmSync(at('dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', at('tsconfig.build.json')], { stdio: 'inherit' });
copyFileSync(at('src/schema.d.ts'), at('dist/schema.d.ts'));

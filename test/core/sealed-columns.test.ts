import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;

/** Every source file under src/, relative to it. */
function sources(dir = ''): string[] {
  return readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * `purser encryption-key reseal` knows a sealed column only if the module that seals it declares it
 * (`SEALED_COLUMNS`, beside the additional data it uses) and the command lists that declaration. A
 * module that seals without declaring would keep the old key needed for ever; this finds it first.
 */
describe('sealed columns', () => {
  it('every module that seals a value declares its columns, and reseal lists every declaration', () => {
    const sealing = sources().filter(
      (file) =>
        file !== 'core/sealer.ts' && /\.(sealer|aead)\.seal\(/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    const command = readFileSync(join(SRC, 'cli/encryption-key.ts'), 'utf8');
    const undeclared = sealing.filter(
      (file) => !/export const SEALED_COLUMNS/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    const unlisted = sealing.filter((file) => !command.includes(`from '../${file}'`));
    expect(sealing.length).toBeGreaterThan(10);
    expect(undeclared).toEqual([]);
    expect(unlisted).toEqual([]);
  });
});

import { parseArgs } from 'node:util';

export class UsageError extends Error {
  /** `showUsage` false: the message says all there is, and the usage text would bury it. */
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

type Options = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** Parses `--name value` options and positionals; unknown options are a usage error. */
export function parse<T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function required(value: string | boolean | undefined, name: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function oneOf<const T extends string>(
  value: string | undefined,
  name: string,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of: ${allowed.join(', ')}`);
  }
  return value as T;
}

export type Print = (text: string) => void;

/** Prints `value` as JSON with --json, else as `key: value` lines (nested objects indented). */
export function show(print: Print, json: boolean | undefined, value: unknown): void {
  if (json) {
    print(JSON.stringify(value, null, 2));
    return;
  }
  const scalar = (v: unknown) =>
    Array.isArray(v) ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : x)).join(', ') : String(v);
  const lines = (obj: unknown, indent = ''): string[] =>
    Object.entries(obj as object).flatMap(([k, v]) =>
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? [`${indent}${k}:`, ...lines(v, `${indent}  `)]
        : [`${indent}${k}: ${scalar(v)}`],
    );
  print(lines(value).join('\n'));
}

export interface Rule {
  name: string;
  reason: string;
  /** Whether `from` breaks the rule by importing `to` (RULES) or by touching table `to` (TABLE_RULES). */
  breaks: (from: string, to: string) => boolean;
}
export interface Source {
  /** Relative to src/. */
  path: string;
  text: string;
}
/** A rule over a file's own text (FILE_RULES): what in `text` of `from` breaks it, by name. */
export interface FileRule {
  name: string;
  reason: string;
  breaks: (from: string, text: string) => string[];
}
export const RULES: Rule[];
export const TABLE_RULES: Rule[];
export const FILE_RULES: FileRule[];
export const TABLE_OWNERS: Record<string, string>;
export function sources(): Source[];
export function importGraph(files?: Source[]): [string, string][];
export function tables(): string[];
export function tableUses(files?: Source[], known?: string[]): [string, string][];
export function violations(files?: Source[]): string[];
export function allowed(): string[];
export function check(planted?: Source[]): { found: string[]; fresh: string[]; stale: string[] };

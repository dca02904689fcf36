export interface Rule {
  name: string;
  reason: string;
  breaks: (from: string, to: string) => boolean;
}
export const RULES: Rule[];
export function importGraph(): [string, string][];
export function violations(): string[];
export function allowed(): string[];
export function check(): { found: string[]; fresh: string[]; stale: string[] };

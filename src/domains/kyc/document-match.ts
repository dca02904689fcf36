import { normaliseDocumentNumber } from './digests.ts';
import type { Extracted } from './reader/index.ts';

/**
 * Does the back belong to the document whose front was uploaded? Compares what both sides carry
 * (a field one side does not carry is not compared) and returns, per field, why they differ; empty
 * when they agree. The front decides the document: a back that disagrees is refused, never merged.
 */
export function backMismatches(
  front: Partial<Extracted>,
  back: Partial<Extracted>,
): Partial<Record<keyof Extracted, string>> {
  const problems: Partial<Record<keyof Extracted, string>> = {};
  const differ = (field: keyof Extracted, same: (a: string, b: string) => boolean) => {
    const a = front[field];
    const b = back[field];
    if (a !== undefined && b !== undefined && !same(a, b)) problems[field] = 'does not match the front';
  };
  differ('issuing_country', (a, b) => a.toUpperCase() === b.toUpperCase());
  differ('document_type', (a, b) => a === b);
  differ('document_number', (a, b) => normaliseDocumentNumber(a) === normaliseDocumentNumber(b));
  differ('first_name', sameName);
  differ('last_name', sameName);
  differ('date_of_birth', (a, b) => a === b);
  return problems;
}

/** Words of a name in capitals without accents or punctuation ("Marie-Ève" → MARIE, EVE). */
function nameWords(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .split(/[^A-Z]+/)
    .filter(Boolean);
}

/**
 * The same name when the words of one begin the other's: a front may print given and middle names
 * ("JORDAN LEE") where the barcode keeps the first given name apart ("JORDAN").
 */
function sameName(a: string, b: string): boolean {
  const left = nameWords(a);
  const right = nameWords(b);
  const [short, long] = left.length <= right.length ? [left, right] : [right, left];
  return short.length > 0 && short.every((word, i) => word === long[i]);
}

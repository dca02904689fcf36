/**
 * Cents and token units, in exact integer arithmetic (bigint, never a float). With a USDC-style
 * token of 6 decimals a cent is 10^4 units. A deposit credits whole cents, rounded down: never more
 * than arrived. What is left over (under a cent) stays at the address and is recorded with the
 * deposit (`chain_deposits.units` against `credited_cents`), never credited later (docs/funding.md).
 */
export function unitsPerCent(decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 2)
    throw new Error('a token with cents has at least 2 decimals');
  return 10n ** BigInt(decimals - 2);
}

/** What a transfer of `cents` moves on the chain. */
export function unitsFromCents(cents: number, decimals: number): bigint {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error('cents must be a non-negative safe integer');
  return BigInt(cents) * unitsPerCent(decimals);
}

/** What a deposit of `units` credits: whole cents, rounded down, and the remainder in units. */
export function centsFromUnits(units: bigint, decimals: number): { cents: bigint; remainder: bigint } {
  if (units < 0n) throw new Error('units must not be negative');
  const per = unitsPerCent(decimals);
  return { cents: units / per, remainder: units % per };
}

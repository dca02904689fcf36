/**
 * The one lookup of the state tables whose every move has exactly one row (connect attempts, card
 * flows, checkout authorizations): the row a move takes. A move with no row is a bug in the table,
 * not a refusal, and fails loudly.
 */
export function rowFor<Row extends { move: string }>(table: readonly Row[], move: Row['move']): Row {
  const row = table.find((candidate) => candidate.move === move);
  if (!row) throw new Error(`the state table has no row for the move ${move}`);
  return row;
}

/**
 * The value `memory` holds for `key`, made by `make` and kept the first time it is asked for. Past
 * `max` keys the memory starts over: for values that never change once made (a statement text's
 * analysis, an address spelling's class), where it bounds memory rather than chooses what to keep.
 */
export function remembered<K, V>(memory: Map<K, V>, max: number, key: K, make: (key: K) => V): V {
  let value = memory.get(key);
  if (value === undefined) {
    value = make(key);
    if (memory.size >= max) memory.clear();
    memory.set(key, value);
  }
  return value;
}

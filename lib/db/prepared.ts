import { createHash } from "node:crypto";
import type pg from "pg";

// Named by their text: a text built again (the tick's snapshot, per call) is the same statement,
// and two texts never share a name (node-pg refuses one name for two texts on a connection).
const names = new Map<string, string>();
// Only texts built from constants are meant; past this many a text is no longer prepared, so a
// caller that built values into its text cannot grow this map or the connections' caches.
const MAX_PREPARED = 256;

/**
 * A statement on every tick's, run start's or webhook delivery's path as a query that each pooled connection
 * parses and plans once, then keeps: the tick's snapshot took ~1.2 ms of Postgres's planning per
 * tick, longer than running it. Postgres re-plans a kept statement itself after a migration; its
 * result must not be a table's row (`RETURNING *`, `SELECT *` at the top), whose type a
 * migration would change under the kept statement: return json or named columns.
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_PREPARED) return { text, values };
    name = `rm_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
    names.set(text, name);
  }
  return { name, text, values };
}

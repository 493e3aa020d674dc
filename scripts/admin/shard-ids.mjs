// `npm run admin -- shards reseat-ids`, also the last step of every db:restore that loads a shard: each shard range's
// counter raised past the highest id of that range on any shard database (docs/decisions.md, "Backups";
// docs/operations.md, "Shard ids after a restore"). Shard n issues n·2^32 + 1, + 2, … from its `shard_ids` row, whose
// `next_id` is the last id it issued (src/db/queries/shard-rows.ts), and a row keeps its id when its container moves.
// A shard restored from a backup or by Time Travel gets its counter back from then, while rows its range issued since
// may live on another shard (their container moved): without this it would issue those ids again.
import { execute, sqlInt } from "./d1.mjs";
import { loadAppCode } from "./app-code.mjs";
import { shardBindings } from "../d1-bindings.mjs";

const shardOf = (binding) => Number(binding.slice("SHARD_".length));
const quoted = (name) => `"${name.replaceAll('"', '""')}"`;

/**
 * Raises, on every shard database of `target`'s environment, the counter of each range (the environment's shard
 * numbers) to the highest id of that range found on any of them, never lowering one: on the database that issues
 * from the range, creating its row if the restore left none; on any other, only a row it already has. Reads one
 * `SELECT max(id)` per id-bearing table (SHARD_TABLES with an `id` column) per range per database, each a seek of its
 * primary key. A database without the tables (not migrated yet) is passed by. Answers what it found and changed.
 */
export async function reseatShardIds(target) {
  const { SHARD_TABLES, SHARD_ID_RANGE } = await loadAppCode();
  const bindings = await shardBindings(target.env);
  const ranges = bindings.map(shardOf);
  const databases = bindings.map((binding) => {
    const on = { ...target, binding };
    const [tables] = execute(
      on,
      // D1 does not let its own _cf_ tables be read, not even their columns.
      "SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND " +
        "(m.name = 'shard_ids' OR EXISTS (SELECT 1 FROM pragma_table_info(m.name) p WHERE p.name = 'id')) ORDER BY m.name",
    );
    const names = new Set(tables.map((t) => t.name));
    const idTables = SHARD_TABLES.filter((t) => names.has(t));
    if (!names.has("shard_ids")) return { binding, on, migrated: false, counters: new Map(), maxima: [] };
    const pairs = ranges.flatMap((range) => idTables.map((table) => ({ range, table })));
    const results = execute(
      on,
      [
        "SELECT shard, next_id FROM shard_ids ORDER BY shard",
        ...pairs.map(
          ({ range, table }) =>
            `SELECT max(id) AS max_id FROM ${quoted(table)} WHERE id > ${sqlInt(range * SHARD_ID_RANGE)} AND id <= ${sqlInt((range + 1) * SHARD_ID_RANGE)}`,
        ),
      ].join(";\n"),
    );
    const counters = new Map(results[0].map((c) => [c.shard, c.next_id]));
    const maxima = pairs.map((p, i) => ({ ...p, max: results[i + 1][0]?.max_id ?? null })).filter((m) => m.max !== null);
    return { binding, on, migrated: true, counters, maxima };
  });

  // The highest id of each range on any database, and where.
  const highest = new Map();
  for (const db of databases) {
    for (const m of db.maxima) {
      if (!(highest.get(m.range)?.max >= m.max)) highest.set(m.range, { max: m.max, binding: db.binding, table: m.table });
    }
  }

  const shards = [];
  for (const db of databases) {
    if (!db.migrated) {
      shards.push({ binding: db.binding, migrated: false, counters: [] });
      continue;
    }
    const raise = [...highest].filter(
      ([range, { max }]) => (db.counters.has(range) || shardOf(db.binding) === range) && !(db.counters.get(range) >= max),
    );
    let after = db.counters;
    if (raise.length) {
      // max(): a writer may have moved the counter on since it was read; it never goes back.
      const results = execute(
        db.on,
        [
          ...raise.map(
            ([range, { max }]) =>
              `INSERT INTO shard_ids (shard, next_id) VALUES (${sqlInt(range)}, ${sqlInt(max)}) ` +
              "ON CONFLICT (shard) DO UPDATE SET next_id = max(next_id, excluded.next_id)",
          ),
          "SELECT shard, next_id FROM shard_ids ORDER BY shard",
        ].join(";\n"),
      );
      const rows = results.at(-1);
      after = new Map(rows.map((c) => [c.shard, c.next_id]));
    }
    const seen = [...new Set([...db.counters.keys(), ...after.keys()])].sort((a, b) => a - b);
    shards.push({
      binding: db.binding,
      migrated: true,
      counters: seen.map((range) => ({
        range,
        before: db.counters.get(range) ?? null,
        after: after.get(range) ?? null,
        raised: (after.get(range) ?? null) !== (db.counters.get(range) ?? null),
      })),
    });
  }
  return {
    ranges: ranges.map((range) => ({
      range,
      max_id: highest.get(range)?.max ?? null,
      found_on: highest.get(range) ? `${highest.get(range).binding}.${highest.get(range).table}` : null,
    })),
    shards,
  };
}

export function printReseat({ ranges, shards }) {
  for (const r of ranges) {
    console.log(`range ${r.range}: ${r.max_id === null ? "no id in use" : `highest id in use ${r.max_id} (${r.found_on})`}`);
  }
  for (const s of shards) {
    if (!s.migrated) {
      console.log(`${s.binding}: no shard_ids table (not migrated): passed by`);
      continue;
    }
    for (const c of s.counters) {
      const change = c.raised ? `raised ${c.before ?? "(none)"} → ${c.after}` : `${c.after} (already past every id in use)`;
      console.log(`${s.binding}: range ${c.range} counter ${change}`);
    }
    if (!s.counters.length) console.log(`${s.binding}: no counter (no id issued or in use)`);
  }
  const raised = shards.flatMap((s) => s.counters).filter((c) => c.raised).length;
  console.log(
    raised ? `${raised} counters raised: no id in use is issued again` : "nothing to raise: every counter is past the ids in use",
  );
}

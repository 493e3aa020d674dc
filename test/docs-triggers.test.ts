/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import development from "../docs/development.md?raw";

/**
 * docs/development.md, "Triggers", lists every trigger with its file and what it keeps; the folders below hold the
 * current definitions (test/db/triggers.test.ts keeps them equal to the migrated databases). This file keeps the
 * tables equal to the folders, so a trigger added, renamed or dropped cannot leave the docs behind.
 */

// Vite reads the files when it builds the test, so a new file in either folder is checked with no edit here.
const FOLDERS = {
  "src/db/triggers": import.meta.glob<string>("../src/db/triggers/*.sql", { query: "?raw", import: "default", eager: true }),
  "src/db/shard-triggers": import.meta.glob<string>("../src/db/shard-triggers/*.sql", {
    query: "?raw",
    import: "default",
    eager: true,
  }),
};

/** Each trigger's name with the file it is defined in (src/…), in the order of the files. */
function defined() {
  return Object.entries(FOLDERS).flatMap(([folder, files]) =>
    Object.entries(files).flatMap(([path, sql]) =>
      [...sql.matchAll(/^CREATE TRIGGER\s+[`"[]?(\w+)/gim)].map((m) => ({
        name: m[1],
        file: `${folder}/${path.split("/").pop()}`,
      })),
    ),
  );
}

/** The "Triggers" section: from its heading to the next one of the same level. */
const section = development.slice(development.indexOf("\n## Triggers\n")).split(/\n## (?!Triggers\n)/)[0];

/** Each row of the section's tables naming a trigger, with the file of the group row above it. */
function documented() {
  const rows: { name: string; file: string | undefined }[] = [];
  let file: string | undefined;
  for (const line of section.split("\n")) {
    const group = /^\| \[`[\w-]+\.sql`\]\(\.\.\/(src\/db\/[\w-]+\/[\w-]+\.sql)\)/.exec(line);
    if (group) file = group[1];
    const row = /^\| `(\w+)` \|/.exec(line);
    if (row) rows.push({ name: row[1], file });
  }
  return rows;
}

describe("docs/development.md, Triggers", () => {
  const source = defined();
  const docs = documented();

  it("finds the triggers of both folders and a table row for each", () => {
    expect(Object.values(FOLDERS).every((files) => Object.keys(files).length > 0)).toBe(true);
    expect(section.startsWith("\n## Triggers\n")).toBe(true);
    expect(docs.length).toBeGreaterThan(0);
  });

  it("names every trigger once, under the file that defines it, and no other", () => {
    const missing = source.filter((t) => !docs.some((d) => d.name === t.name)).map((t) => `${t.name} (${t.file})`);
    const extra = docs.filter((d) => !source.some((t) => t.name === d.name)).map((d) => d.name);
    const misplaced = docs
      .filter((d) => source.some((t) => t.name === d.name && t.file !== d.file))
      .map((d) => `${d.name} is under ${d.file}`);
    const twice = docs.filter((d, i) => docs.findIndex((o) => o.name === d.name) !== i).map((d) => d.name);
    expect({ missing, extra, misplaced, twice }).toEqual({ missing: [], extra: [], misplaced: [], twice: [] });
  });
});

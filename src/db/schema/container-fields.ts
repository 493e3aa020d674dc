import type { containers } from "./catalogue";

type ContainerInsert = typeof containers.$inferInsert;
type ContainerSelect = typeof containers.$inferSelect;

/** What a plain field holds; each kind has one wire schema per use in the contracts (`catalogue.ts`, `catalogue-writes.ts`). */
export type ContainerFieldKind = "boolean" | "date";

interface ContainerField {
  /** Where the wire puts it: at the top of the container, or inside `flags`. */
  in: "top" | "flags";
  column: keyof ContainerInsert & keyof ContainerSelect;
  kind: ContainerFieldKind;
  /** Who may write it: staff only, or also the container's managers. */
  writer: "staff" | "managers";
  description?: string;
}

/**
 * The container's plain columns as clients read and write them. The read contract (`ContainerSchema`), the write
 * bodies, `containerView` and the write service are built from this table, so a new plain field is its column in
 * `catalogue.ts` (with the migration drizzle-kit makes) and an entry here (docs/development.md, "Recipe: a new field
 * on containers"). Fields with rules of their own (type, state, origin, images, texts, genres, licences, managers)
 * are written out where they are used.
 */
const CONTAINER_FIELDS = {
  licensed: { in: "flags", column: "licensed", kind: "boolean", writer: "staff" },
  hosted: { in: "flags", column: "hosted", kind: "boolean", writer: "staff" },
  on_air: { in: "flags", column: "onAir", kind: "boolean", writer: "managers" },
  adult: { in: "flags", column: "adult", kind: "boolean", writer: "managers" },
  upcoming: { in: "flags", column: "upcoming", kind: "boolean", writer: "managers" },
  release_date: { in: "top", column: "releaseDate", kind: "date", writer: "managers", description: "YYYY-MM-DD" },
} as const satisfies Record<string, ContainerField>;

type Fields = typeof CONTAINER_FIELDS;
type ContainerFieldName = keyof Fields;
/** The names of the fields the wire puts in `group`. */
export type ContainerFieldsIn<G extends ContainerField["in"]> = {
  [K in ContainerFieldName]: Fields[K]["in"] extends G ? K : never;
}[ContainerFieldName];
/** A field's value on the wire, as read. */
export type ContainerFieldValue<K extends ContainerFieldName> = Fields[K]["kind"] extends "boolean" ? boolean : string | null;

const names = Object.keys(CONTAINER_FIELDS) as ContainerFieldName[];

/** The fields the wire puts in `group`, with their table entries. */
export const containerFieldsIn = <G extends ContainerField["in"]>(group: G) =>
  names.filter((name) => CONTAINER_FIELDS[name].in === group).map((name) => [name, CONTAINER_FIELDS[name]] as const);

/** A container row's fields of `group`, as the wire names them. */
export function readContainerFields<G extends ContainerField["in"]>(row: ContainerSelect, group: G) {
  const out: Record<string, unknown> = {};
  for (const [name, field] of containerFieldsIn(group)) out[name] = row[field.column];
  // Each value is the column its entry names, which the kind describes.
  return out as { [K in ContainerFieldsIn<G>]: ContainerFieldValue<K> };
}

/** The columns to write for the fields a body sends (`top`: the body; `flags`: its `flags`); absent fields are left out. */
export function containerColumns(sent: { top?: object; flags?: object }): Partial<ContainerInsert> {
  const set: Record<string, unknown> = {};
  for (const name of names) {
    const field = CONTAINER_FIELDS[name];
    const value = (sent[field.in] as Record<string, unknown> | undefined)?.[name];
    if (value !== undefined) set[field.column] = value;
  }
  return set as Partial<ContainerInsert>;
}

/** The body paths (`flags.hosted`) of the fields only staff may write. */
export const STAFF_ONLY_FIELDS = names
  .filter((name) => CONTAINER_FIELDS[name].writer === "staff")
  .map((name) => (CONTAINER_FIELDS[name].in === "flags" ? `flags.${name}` : name));

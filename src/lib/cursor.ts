import { z } from "@hono/zod-openapi";
import { fromBase64Url, toBase64Url, utf8 } from "./encoding";

/**
 * Keyset cursors for the lists read across shards (docs/decisions.md, "Keyset paging across shards"): the sort key of
 * a page's last row, so the next page reads only rows after it on each shard, at any depth. Opaque to clients
 * (base64url of a small JSON) and validated on the way back in: anything else is a 400 naming `cursor`.
 */

/**
 * The list a cursor belongs to, so a cursor of one list sent to another is refused rather than read as a position:
 * `t` every translation (newest first: created_at, then id), `l` a language's translations (video id, then subtitle
 * id; 0 for a video's empty position), `h` a user's subtitle history (newest first: created_at, then id).
 */
const CURSOR_LISTS = ["t", "l", "h"] as const;
export type CursorList = (typeof CURSOR_LISTS)[number];

/** A position in a list: its two sort key columns, whole numbers (seconds, ids). */
export interface Cursor {
  list: CursorList;
  key: readonly [number, number];
}

/** Longer than any cursor this API writes (two 16-digit numbers in a small JSON): a longer one is refused unread. */
const MAX_CURSOR_LENGTH = 120;

const KeyPart = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const Wire = z.object({ l: z.enum(CURSOR_LISTS), k: z.tuple([KeyPart, KeyPart]) }).strict();

export const encodeCursor = (c: Cursor) => toBase64Url(utf8(JSON.stringify({ l: c.list, k: c.key })));

/** The cursor a string stands for, or undefined when it is not one this API wrote (malformed or tampered). */
function decodeCursor(s: string): Cursor | undefined {
  if (s.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(s)) return undefined;
  try {
    const parsed = Wire.safeParse(JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(fromBase64Url(s))));
    return parsed.success ? { list: parsed.data.l, key: parsed.data.k } : undefined;
  } catch {
    return undefined;
  }
}

/** The `cursor` query parameter of a list read across shards: decoded here, so a bad one is a 400 naming `cursor`. */
export const cursorField = z
  .string()
  .optional()
  .transform((s, ctx) => {
    if (s === undefined || s === "") return undefined;
    const cursor = decodeCursor(s);
    if (!cursor) {
      ctx.addIssue({ code: "custom", message: "not a cursor this list answered: send the `cursor` of the previous page as it came" });
      return z.NEVER;
    }
    return cursor;
  })
  .openapi({
    description:
      "the `cursor` of the previous page, to read the next one after it: each shard then reads only a page's rows, at any depth, and the paging ceiling does not apply; not with `page`",
    type: "string",
  });

/** The envelope's `cursor`, on the lists that answer one. */
export const cursorEnvelopeField = {
  cursor: z
    .string()
    .optional()
    .openapi({ description: "present when `more` is true: send it as `cursor=` (without `page`) for the next page" }),
};

// Files read and written a line at a time, so a backup or restore of any size passes through in bounded memory: a
// chunk, the longest line and the output waiting to be written, whatever the database's size (docs/decisions.md,
// "Backups").
import { createReadStream, createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** Bytes read at a time, and the size the output is written in. */
const CHUNK = 1 << 16;

/**
 * The lines of a file, split on "\n" only (a "\r" stays in its line: readline would break there too), each without
 * its "\n". A file ending in "\n" has no empty last line. Decoded as UTF-8 across chunk boundaries.
 */
export async function* readLines(path) {
  let rest = "";
  for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: CHUNK })) {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop();
    yield* parts;
  }
  if (rest) yield rest;
}

/**
 * Writes the texts `texts` (an iterable or async iterable of strings) to `path`, created with `mode`, in chunks of
 * about 64 KiB, waiting whenever the disk is behind (the stream's backpressure), so the texts are produced only as
 * fast as they are written.
 */
export async function writeTexts(path, texts, { mode = 0o600 } = {}) {
  async function* chunks() {
    let buffered = [];
    let size = 0;
    for await (const text of texts) {
      buffered.push(text);
      size += text.length;
      if (size >= CHUNK) {
        yield buffered.join("");
        buffered = [];
        size = 0;
      }
    }
    if (buffered.length) yield buffered.join("");
  }
  await pipeline(Readable.from(chunks(), { objectMode: false }), createWriteStream(path, { mode }));
}

// How many files a change touches, by hand and generated (docs/development.md, "What a change touches"):
//
//   node scripts/count-touches.mjs main...my-branch   a range, as `git diff` takes it (three dots: from the merge base)
//   node scripts/count-touches.mjs 1a2b3c4            one commit (`1a2b3c4^!`)
//   node scripts/count-touches.mjs change.patch       a patch (`git diff` or `git format-patch` output)
//   node scripts/count-touches.mjs                    the working tree against HEAD, untracked files included
//
// Generated: drizzle-kit's bookkeeping (`migrations/meta/`) and a migration whose whole content drizzle-kit wrote
// (no comment, only the DDL it emits). Everything else, a hand-written or hand-edited migration included, is by
// hand. Prints both lists and the two counts. Reads git and files only.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

const git = (...args) => execFileSync("git", args, { encoding: "utf8", maxBuffer: 1 << 28 });

/** The statements drizzle-kit writes into a migration; anything else was written by a person. */
const DRIZZLE_STATEMENT =
  /^(CREATE TABLE|ALTER TABLE|DROP TABLE|CREATE (UNIQUE )?INDEX|DROP INDEX|PRAGMA foreign_keys|INSERT INTO `__new_)/;

/** Whether a migration's text is all drizzle-kit's: statements it emits, no comments. */
function drizzleMade(sql) {
  const statements = sql
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter(Boolean);
  const commented = sql.split("\n").some((line) => line.trim().startsWith("--") && !line.includes("--> statement-breakpoint"));
  return statements.length > 0 && !commented && statements.every((s) => DRIZZLE_STATEMENT.test(s));
}

/** Whether a touched path is generated; `content` gives a migration's text after the change (null when deleted). */
function isGenerated(path, content) {
  if (path.startsWith("migrations/meta/")) return true;
  if (/^migrations\/[^/]+\.sql$/.test(path)) return content !== null && drizzleMade(content);
  return false;
}

/** The touched paths of a patch, with the new text of each added file (its `+` lines). */
function fromPatch(text) {
  const files = new Map();
  let current = null;
  for (const line of text.split("\n")) {
    const header = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (header) {
      current = { path: header[2], lines: [], deleted: false };
      files.set(current.path, current);
    } else if (current && line.startsWith("deleted file mode")) current.deleted = true;
    else if (current && line.startsWith("+") && !line.startsWith("+++")) current.lines.push(line.slice(1));
  }
  return [...files.values()].map((f) => ({ path: f.path, content: f.deleted ? null : f.lines.join("\n") }));
}

/** The touched paths of `git diff <args>`, with each file's text at `end` (null when deleted or absent). */
function fromGit(args, end) {
  const out = git("diff", "--name-status", "--no-renames", "-z", ...args)
    .split("\0")
    .filter(Boolean);
  const files = [];
  for (let i = 0; i < out.length; i += 2) {
    const [status, path] = [out[i], out[i + 1]];
    let content = null;
    if (status !== "D") {
      if (end) content = git("show", `${end}:${path}`);
      else if (existsSync(path)) content = readFileSync(path, "utf8");
    }
    files.push({ path, content });
  }
  return files;
}

function touched(arg) {
  if (arg === undefined) {
    const untracked = git("ls-files", "-z", "--others", "--exclude-standard").split("\0").filter(Boolean);
    return [...fromGit(["HEAD"], null), ...untracked.map((path) => ({ path, content: readFileSync(path, "utf8") }))];
  }
  if (existsSync(arg)) return fromPatch(readFileSync(arg, "utf8"));
  const range = /^(.*?)\.\.\.?(.*)$/.exec(arg);
  if (range) return fromGit([arg], range[2] || "HEAD");
  return fromGit([`${arg}^!`], arg);
}

const [arg] = process.argv.slice(2);
const patch = arg !== undefined && existsSync(arg) ? resolve(arg) : undefined;
process.chdir(git("rev-parse", "--show-toplevel").trim());
const files = touched(patch ?? arg).sort((a, b) => a.path.localeCompare(b.path));
const generated = files.filter((f) => isGenerated(f.path, f.content)).map((f) => f.path);
const byHand = files.map((f) => f.path).filter((p) => !generated.includes(p));
for (const [label, list] of [
  ["by hand", byHand],
  ["generated", generated],
]) {
  console.log(`${label} (${list.length}):`);
  for (const path of list) console.log(`  ${path}`);
}
console.log(`${byHand.length} by hand, ${generated.length} generated`);

// npm run lint:links (part of npm run lint): the repository stands alone. Every relative Markdown link and #anchor in
// README.md and docs/**/*.md, every citation of a document ("docs/api.md", `docs/api.md, "Write limits"`,
// `docs/api.md#write-limits`, `README.md "Webhooks"`) and every repository path (`src/lib/paging.ts`) named in the
// docs, src, test, scripts, queues, wrangler.toml and vitest.config.ts must name a file, directory or heading that
// exists; code cites no issue numbers; and no file may point outside the repository (docs/spec/README.md, "Citing it").
// Prints each problem as file:line and exits 1 when there is one. Reads files only: no network, no build.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const started = performance.now();

/** Tracked and untracked-but-not-ignored files: what a clone (or the next commit) holds. */
function repositoryFiles() {
  try {
    const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return [...new Set(out.split("\0").filter(Boolean))].filter((f) => existsSync(join(ROOT, f)));
  } catch {
    const walk = (dir) =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
        const path = dir ? `${dir}/${e.name}` : e.name;
        if (e.name.startsWith(".") || ["node_modules", "dist", "coverage", "public"].includes(e.name)) return [];
        return e.isDirectory() ? walk(path) : [path];
      });
    return walk("");
  }
}

const files = repositoryFiles();
const text = new Map();
for (const file of files) {
  const buffer = readFileSync(join(ROOT, file));
  if (!buffer.includes(0)) text.set(file, buffer.toString("utf8"));
}

const problems = [];
const report = (file, index, message) => {
  const line = text.get(file).slice(0, index).split("\n").length;
  problems.push(`${file}:${line}: ${message}`);
};

const isMarkdown = (f) => f === "README.md" || (f.startsWith("docs/") && f.endsWith(".md"));
/** Files whose comments and strings cite documents and repository paths. */
const isSource = (f) =>
  (/^(src|test|scripts|queues|migrations)\//.test(f) && /\.(ts|mts|mjs|js|sql)$/.test(f)) ||
  f === "wrangler.toml" ||
  f === "vitest.config.ts";

/** The text with fenced code blocks blanked (same length, so offsets still give line numbers). */
const withoutFences = (md) => md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, " "));
const withoutCodeSpans = (s) => s.replace(/`[^`\n]*`/g, (span) => " ".repeat(span.length));

/** Heading text without Markdown decoration: what a citation quotes. */
const plain = (heading) =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*_]/g, "")
    .trim();
/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens. */
const slug = (heading) =>
  plain(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** Per Markdown file: its anchors and the plain texts of its headings. */
const headings = new Map();
function headingsOf(file) {
  if (!headings.has(file)) {
    const anchors = new Set();
    const names = [];
    const seen = new Map();
    for (const m of withoutFences(text.get(file) ?? "").matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
      const base = slug(m[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n ? `${base}-${n}` : base);
      names.push(plain(m[1]).toLowerCase());
    }
    // A list item's lead names a section too: `- **Edge cache: ...**`, `- Signed requests: ...`.
    for (const m of withoutFences(text.get(file) ?? "").matchAll(/^\s*[-*+]\s+(.+)$/gm)) {
      const item = m[1];
      const lead = item.startsWith("**") ? item.slice(2, item.indexOf("**", 2)) : item.includes(":") ? item.split(":")[0] : "";
      if (lead && lead.length <= 80) names.push(plain(lead).replace(/[.:]$/, "").toLowerCase());
    }
    headings.set(file, { anchors, names });
  }
  return headings.get(file);
}

/**
 * A quoted section names a heading or the lead of a list item (its bold words, or the words before its ":"): the
 * whole of it, or the part before a trailing "(...)" or before a ": " (`"Providers"` names the heading
 * "Providers (`IDENTITY_PROVIDERS`)", `"Edge cache"` the item "**Edge cache: Cache API with KV generations.**").
 */
const namesHeading = (file, section) => {
  const wanted = section.trim().toLowerCase();
  return headingsOf(file).names.some((h) => h === wanted || h.replace(/\s*\([^)]*\)$/, "") === wanted || h.split(": ")[0] === wanted);
};

/** Resolves `target` (relative to `from`'s folder) inside the repository, or null when it climbs out. */
function inside(from, target) {
  const abs = resolve(ROOT, dirname(from), target);
  const rel = relative(ROOT, abs);
  return rel.startsWith("..") || resolve(ROOT, rel) !== abs ? null : rel.split(sep).join("/");
}

function checkTarget(file, index, target, { anchor, section, what }) {
  if (target === null) return report(file, index, `${what} points outside the repository`);
  if (!existsSync(join(ROOT, target))) return report(file, index, `${what}: no file ${target}`);
  const isMd = target.endsWith(".md") && statSync(join(ROOT, target)).isFile();
  if (anchor && isMd && !headingsOf(target).anchors.has(anchor)) report(file, index, `${what}: no heading #${anchor} in ${target}`);
  if (section && isMd && !namesHeading(target, section)) report(file, index, `${what}: no heading "${section}" in ${target}`);
}

// 1. Markdown links (inline and reference-style) in README.md and docs/.
for (const file of files.filter(isMarkdown)) {
  const body = withoutCodeSpans(withoutFences(text.get(file)));
  const links = [...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...body.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)];
  for (const m of links) {
    const href = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // https:, mailto:
    const [path, anchor] = href.split("#");
    const what = `link ${href}`;
    if (href.startsWith("/")) report(file, m.index, `${what}: absolute path; write it relative to ${file}`);
    else checkTarget(file, m.index, path ? inside(file, decodeURI(path)) : file, { anchor: anchor?.toLowerCase(), what });
  }
}

// 2. Citations of documents and named repository paths, in the docs' prose and in sources, comments included.
const DOC = String.raw`(?:docs/[\w./-]*?\.md|README(?:\.md)?)`;
/** `docs/<file>.md#anchor`, or `docs/<file>.md` then `, "Section"` / ` "Section"` / ` ("Section")`, across comment line breaks. */
const CITATION = new RegExp(String.raw`(?<![\w./-])(${DOC})(?:#([\w-]+))?(?:(?:,|\s)(?:\s|\*|//|#(?=\s)|--)*\(?"([^"]{2,160}?)")?`, "g");
/** A quoted section wrapped over comment lines, as one line. */
const unwrapped = (section) => section?.replace(/\s*\n\s*(?:\*|\/\/|#|--)?\s*/g, " ");
/** A path from the root; one followed by a glob or a `<placeholder>` is a pattern, not a name, and is left alone. */
const PATH = /(?<![\w./@~-])((?:src|test|scripts|queues|migrations|docs)\/[\w./-]*[\w/])(?![\w<>*{…/-])/g;
/** `migrations/0003` names a migration by its number. */
const exists = (path) => existsSync(join(ROOT, path)) || (/^migrations\/\d{4}$/.test(path) && files.some((f) => f.startsWith(`${path}_`)));
for (const file of files.filter((f) => isMarkdown(f) || isSource(f))) {
  // In Markdown, link targets are relative to the file and were checked above; prose names paths from the root.
  const body = isMarkdown(file) ? withoutFences(text.get(file)).replace(/\]\([^)]*\)/g, (t) => " ".repeat(t.length)) : text.get(file);
  for (const m of body.matchAll(CITATION)) {
    const doc = m[1].startsWith("README") ? "README.md" : m[1];
    checkTarget(file, m.index, doc, { anchor: m[2]?.toLowerCase(), section: unwrapped(m[3]), what: `citation ${unwrapped(m[0])}` });
  }
  // Code cites the decision by its section, never the tracker's number: a clone has no tracker.
  if (!isMarkdown(file))
    for (const m of body.matchAll(/\bissues? \d+\b/gi)) report(file, m.index, `cites "${m[0]}": cite docs/decisions.md by section`);
  for (const m of body.matchAll(PATH)) {
    const path = m[1].replace(/\.$/, "");
    if (/^docs\/.*\.md$/.test(path) || /^README/.test(path)) continue; // checked as a citation above
    if (!exists(path)) report(file, m.index, `names ${path}, which does not exist`);
  }
}

/** Comment lines and trailing `// ...` / ` # ...` comments; everything else blanked to keep offsets. */
const commentsOnly = (body) =>
  body.replace(/^.*$/gm, (line) => {
    if (/^\s*(\/\/|\*|\/\*|#|--)/.test(line)) return line;
    const at = line.search(/\s(\/\/|#|--)\s/);
    return at < 0 ? " ".repeat(line.length) : " ".repeat(at) + line.slice(at);
  });

// 3. Nothing points outside the repository: the design notes it grew from, a workspace, a home directory, or a
// relative path that climbs above the root. (System locations such as /tmp and /usr/bin are where tools write or live.)
const OUTSIDE = [/\.\.\/shared\b/g, /\/work\/\w/g, /\/home\/\w/g, /\/Users\/\w/g, /\bDESIGN\.md\b/g, /\bWIRE\.md\b/g];
for (const [file, body] of text) {
  for (const re of OUTSIDE) for (const m of body.matchAll(re)) report(file, m.index, `mentions ${m[0]}, outside the repository`);
  if (!/\.(md|ts|mts|mjs|js|toml|sql)$/.test(file)) continue;
  // In code, only comments: import specifiers and lint globs are relative to something else than the file.
  const inComments = file.endsWith(".md") ? body : commentsOnly(body);
  for (const m of inComments.matchAll(/(?<![\w./])((?:\.\.\/)+)[\w@.-]/g)) {
    if (inside(file, m[1]) === null) report(file, m.index, `${m[0]}… climbs out of the repository`);
  }
}

const ms = Math.round(performance.now() - started);
for (const p of problems) console.log(p);
console.log(`check-links: ${text.size} files, ${problems.length} problem${problems.length === 1 ? "" : "s"}, ${ms} ms`);
process.exitCode = problems.length ? 1 : 0;

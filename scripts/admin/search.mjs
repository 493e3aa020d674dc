// `npm run admin -- search index-titles`: the index form of every title written before migration 0041 (or by SQL
// that did not set it), so v4 search finds words inside their Chinese, Japanese and Korean titles (docs/operations.md,
// "Title search index form"). The walk is scripts/title-index-forms.mjs, shared with the seeds.
import { fillTitleIndexForms } from "../title-index-forms.mjs";
import { loadAppCode } from "./app-code.mjs";
import { execute } from "./d1.mjs";

/** Walks every title of `target`'s catalogue, a page per `wrangler d1 execute`; answers the titles read and written. */
export async function searchIndexTitles(target) {
  const { indexForm } = await loadAppCode();
  const run = (sql) => execute(target, sql)[0];
  const progress = ({ read, written }) => console.error(`  ${read} titles read, ${written} index forms written`);
  return fillTitleIndexForms(run, indexForm, progress);
}

export function printIndexed({ read, written }) {
  console.log(`${read} titles read; ${written} index forms written (each re-indexed its container or video)`);
}

import { createRoute, z } from "@hono/zod-openapi";
import { GLOSSARY_STATUSES } from "../../domain/glossary-match";
import { parseId, tryParseId, wireIdPattern } from "../../lib/ids";
import { MAX_PER_PAGE, listEnvelope, listEnvelopeSchema, paging, pagingQuery } from "../../lib/paging";
import { routeGroup } from "../../lib/router";
import { type CacheScope, withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { queueGlossaryRecheck } from "../../jobs/subtitle-checks";
import type { Context } from "hono";
import type { AppEnv } from "../../types";
import { depsOf } from "../../services/deps";
import {
  GLOSSARY_MAX_TERMS,
  createTerm,
  deleteTerm,
  glossaryCsvExport,
  glossaryPage,
  glossaryScope,
  importGlossaryCsv,
  updateTerm,
} from "../../services/glossary";
import {
  CSV_COLUMNS,
  GLOSSARY_CSV_LIMIT,
  NOTE_MAX_CHARS,
  TERM_MAX_CHARS,
  TRANSLATIONS_MAX_LANGUAGES,
  TRANSLATION_MAX_CHARS,
  CONTROLS_REFUSED,
  isLanguageCode,
  withoutControls,
} from "../../services/glossary-csv";
import { glossaryTermView } from "../../views/glossary";
import { DEMO_IDS } from "./contracts/catalogue";
import { LanguageCode } from "./contracts/catalogue-writes";

/**
 * A series' glossary (docs/api.md, "Glossary"; docs/decisions.md, "Glossary"): read by anyone who can see the
 * container, written by staff and its managers, as JSON one term at a time or as CSV all at once.
 */

const SERIES = DEMO_IDS.container.series;
const ContainerParam = z.object({ container_id: z.string().openapi({ param: { name: "container_id", in: "path" }, example: SERIES }) });
const TermParams = ContainerParam.extend({
  term_id: z.string().openapi({ param: { name: "term_id", in: "path" }, example: "1k" }),
});

const Translations = z
  .record(z.string(), z.string().trim().min(1).max(TRANSLATION_MAX_CHARS).refine(withoutControls, CONTROLS_REFUSED))
  .refine((t) => Object.keys(t).length <= TRANSLATIONS_MAX_LANGUAGES, `at most ${TRANSLATIONS_MAX_LANGUAGES} languages`)
  .refine((t) => Object.keys(t).every((l) => isLanguageCode(l.toLowerCase())), "keys are language codes (en, pt-br)")
  .transform((t) => Object.fromEntries(Object.entries(t).map(([l, text]) => [l.toLowerCase(), text])))
  .openapi({ description: `language → translation (each 1-${TRANSLATION_MAX_CHARS} characters)`, example: { en: "Yoon Se-ri" } });

const fields = {
  term: z
    .string()
    .trim()
    .min(1)
    .max(TERM_MAX_CHARS)
    .refine(withoutControls, CONTROLS_REFUSED)
    .openapi({ description: `1-${TERM_MAX_CHARS} characters`, example: "윤세리" }),
  language: LanguageCode,
  translations: Translations,
  status: z.enum(GLOSSARY_STATUSES).openapi({ example: "preferred" }),
  note: z
    .string()
    .max(NOTE_MAX_CHARS)
    .refine(withoutControls, CONTROLS_REFUSED)
    .openapi({ description: `at most ${NOTE_MAX_CHARS} characters`, example: "The heiress" }),
  case_sensitive: z.boolean().openapi({ example: false }),
};

/** PATCH: only the fields sent change. */
const TermUpdateBody = z
  .object(fields)
  .partial()
  .openapi("GlossaryTermUpdate", { example: { translations: { en: "Yoon Se-ri", fr: "Yoon Se-ri" }, note: "Heiress, CEO" } });

/** POST: `term` and `language` required; `status` preferred, `note` empty and `case_sensitive` false by default. */
const TermCreateBody = z
  .object(fields)
  .partial()
  .required({ term: true, language: true })
  .openapi("GlossaryTermCreate", {
    example: {
      term: "윤세리",
      language: "ko",
      translations: { en: "Yoon Se-ri", es: "Yoon Se-ri" },
      status: "preferred",
      note: "",
      case_sensitive: false,
    },
  });

const GlossaryTerm = z
  .object({
    id: z.string().regex(wireIdPattern("k")).openapi({ example: "1k" }),
    term: z.string(),
    language: z.string(),
    translations: z.record(z.string(), z.string()),
    status: z.enum(GLOSSARY_STATUSES),
    note: z.string(),
    case_sensitive: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("GlossaryTerm");

const GlossaryList = listEnvelopeSchema(GlossaryTerm, "GlossaryList");
const GlossaryQuery = z.object({ ...pagingQuery });
const ImportQuery = z.object({
  mode: z
    .enum(["replace", "merge"])
    .openapi({ description: "replace the glossary, or add to it (a term already there is rewritten)", example: "merge" }),
});
const ImportResult = z
  .object({
    mode: z.enum(["replace", "merge"]),
    rows: z.number().int().openapi({ description: "terms in the file" }),
    created: z.number().int(),
    updated: z.number().int(),
    terms: z.number().int().openapi({ description: "terms the glossary holds now" }),
  })
  .openapi("GlossaryImport");

const WHO = "Staff and the container's managers (no token 401, anyone else 403; 404 for a container they cannot see).";
const READ = `Anyone who can see the container (hidden containers: their managers and staff). Public: \`Cache-Control: public\`, ETag, 304.`;
const LIMITS =
  `At most ${GLOSSARY_MAX_TERMS} terms a series; \`term\` 1-${TERM_MAX_CHARS} characters, \`note\` at most ${NOTE_MAX_CHARS}, ` +
  `each translation 1-${TRANSLATION_MAX_CHARS}, at most ${TRANSLATIONS_MAX_LANGUAGES} languages.`;

/** A glossary read is cached under the catalogue's generation (the container's visibility) and the series' own. */
const glossaryScopes = (params: Record<string, string>): CacheScope[] => {
  const id = tryParseId(params.container_id, "c");
  return id === null ? ["catalogue"] : ["catalogue", glossaryScope(id)];
};
const PUBLIC_READ = { cache: "public", cacheScope: glossaryScopes, sessionInBatch: true, sharedWithUsers: true } as const;
const WRITE = { security: ["user"], writeLimit: "catalogue" } as const;

const list = withProperties(
  createRoute({
    method: "get",
    path: "/{container_id}/glossary",
    summary: "A series' glossary",
    description: `The terms, oldest first, in the v4 list envelope (\`page\`, \`per_page\` up to ${MAX_PER_PAGE}). ${READ}`,
    request: { params: ContainerParam, query: GlossaryQuery },
    responses: { 200: jsonResponse(GlossaryList, "a page of terms"), ...errorResponses(400, 404) },
  }),
  PUBLIC_READ,
);

/** A write of the glossary: who may send it said in its summary and description, its properties those of every write. */
function managerWrite<R extends Parameters<typeof createRoute>[0] & { summary: string; description: string }>(
  route: R,
  properties: { ownExtension?: boolean; bodyLimit?: number } = {},
) {
  return withProperties(
    createRoute({ ...route, summary: `${route.summary} (staff and the container's managers)`, description: `${WHO} ${route.description}` }),
    { ...WRITE, ...properties },
  );
}

const create = managerWrite({
  method: "post",
  path: "/{container_id}/glossary",
  summary: "Add a glossary term",
  description: `${LIMITS} A term already in the glossary in that language is a 409 naming \`term\`; a full glossary a 409 naming \`glossary\`. Unknown fields are ignored (named in \`x-ignored-fields\`).`,
  request: { params: ContainerParam, body: jsonBody(TermCreateBody) },
  responses: { 201: jsonResponse(GlossaryTerm, "the term"), ...errorResponses(400, 401, 403, 404, 409, 413) },
});

const update = managerWrite({
  method: "patch",
  path: "/{container_id}/glossary/{term_id}",
  summary: "Edit a glossary term",
  description: `Only the fields sent change; \`translations\` is replaced as a whole. ${LIMITS} 404 for a term of another series.`,
  request: { params: TermParams, body: jsonBody(TermUpdateBody) },
  responses: { 200: jsonResponse(GlossaryTerm, "the term as edited"), ...errorResponses(400, 401, 403, 404, 409, 413) },
});

const remove = managerWrite({
  method: "delete",
  path: "/{container_id}/glossary/{term_id}",
  summary: "Delete a glossary term",
  description: "404 for a term of another series.",
  request: { params: TermParams },
  responses: { 204: { description: "deleted" }, ...errorResponses(401, 403, 404) },
});

const CSV_EXAMPLE = "term,language,status,note,case_sensitive,en\r\n윤세리,ko,preferred,,false,Yoon Se-ri\r\n";
const CSV_CONTENT = { "text/csv": { schema: z.string().openapi({ example: CSV_EXAMPLE }) } };

const CSV_SHAPE =
  `RFC 4180 CSV (UTF-8, CRLF; quoted fields may hold commas, quotes written twice and line breaks). Columns: ` +
  `${CSV_COLUMNS.join(", ")}, then one per translation language (\`en\`, \`es\`, ...). A cell that starts with =, +, -, @, ` +
  "a tab or a carriage return is written after a `'` (OWASP's advice against CSV injection); the import drops that `'`.";

const exportCsv = withProperties(
  createRoute({
    method: "get",
    path: "/{container_id}/glossary.csv",
    summary: "A series' glossary as CSV",
    description: `${CSV_SHAPE} Every term, oldest first; the translation columns are every language any term has, alphabetically. ${READ}`,
    request: { params: ContainerParam },
    responses: {
      200: { description: "the glossary", content: CSV_CONTENT },
      ...errorResponses(404),
    },
  }),
  { ...PUBLIC_READ, ownExtension: true },
);

const importCsv = managerWrite(
  {
    method: "post",
    path: "/{container_id}/glossary.csv",
    summary: "Replace or merge a series' glossary from CSV",
    description:
      `${CSV_SHAPE} The first line names the columns; a blank line is skipped. \`mode=replace\` makes the file the ` +
      "glossary; `mode=merge` adds its terms and rewrites those already there (same language and term). A malformed row " +
      "is a 400 whose message names its line and column, and nothing is written: the import is one transaction. " +
      `${LIMITS} A file of more than ${GLOSSARY_MAX_TERMS} rows, or a merge that would pass the limit, is a 400 naming it. ` +
      `At most ${GLOSSARY_CSV_LIMIT / 1024 / 1024} MiB (413).`,
    request: {
      params: ContainerParam,
      query: ImportQuery,
      body: { required: true, description: "the CSV file", content: CSV_CONTENT },
    },
    responses: { 200: jsonResponse(ImportResult, "what the import did"), ...errorResponses(400, 401, 403, 404, 413) },
  },
  { ownExtension: true, bodyLimit: GLOSSARY_CSV_LIMIT },
);

const containerOf = (raw: string) => parseId(raw, "c");
const termOf = (raw: string) => parseId(raw, "k");

/** What a body sets, in the service's names. */
/**
 * After a glossary write: the series' tracks checked again by a `subtitle-checks` job, so their glossary findings and
 * `checks_passing` follow the terms once it ends (docs/api.md, "Quality checks").
 */
const recheck = (c: Context<AppEnv>, containerId: number) => queueGlossaryRecheck(depsOf(c), containerId, c.get("user")!.id);

function valuesOf(body: z.infer<typeof TermUpdateBody>) {
  return {
    ...(body.term !== undefined ? { term: body.term } : {}),
    ...(body.language !== undefined ? { language: body.language } : {}),
    ...(body.translations !== undefined ? { translations: body.translations } : {}),
    ...(body.status !== undefined ? { status: body.status } : {}),
    ...(body.note !== undefined ? { note: body.note } : {}),
    ...(body.case_sensitive !== undefined ? { caseSensitive: body.case_sensitive } : {}),
  };
}

/** Under `/v4/containers`. */
export const glossaryRouter = routeGroup({ tag: "glossary" })
  .openapi(list, async (c) => {
    const q = c.req.valid("query");
    const p = paging(q);
    const page = await glossaryPage(depsOf(c), c.get("user"), containerOf(c.req.valid("param").container_id), p);
    return c.json(await listEnvelope(c.req.url, p, page.rows, glossaryTermView, (t) => glossaryTermView(t).id, page.count), 200);
  })
  .openapi(create, async (c) => {
    const b = c.req.valid("json");
    const values = {
      translations: {},
      status: "preferred" as const,
      note: "",
      caseSensitive: false,
      ...valuesOf(b),
      term: b.term,
      language: b.language,
    };
    const containerId = containerOf(c.req.valid("param").container_id);
    const row = await createTerm(depsOf(c), c.get("user"), containerId, values);
    await recheck(c, containerId);
    return c.json(glossaryTermView(row), 201);
  })
  .openapi(update, async (c) => {
    const params = c.req.valid("param");
    const set = valuesOf(c.req.valid("json"));
    const row = await updateTerm(depsOf(c), c.get("user"), containerOf(params.container_id), termOf(params.term_id), set);
    if (Object.keys(set).length) await recheck(c, containerOf(params.container_id));
    return c.json(glossaryTermView(row), 200);
  })
  .openapi(remove, async (c) => {
    const params = c.req.valid("param");
    await deleteTerm(depsOf(c), c.get("user"), containerOf(params.container_id), termOf(params.term_id));
    await recheck(c, containerOf(params.container_id));
    return c.body(null, 204);
  })
  .openapi(exportCsv, async (c) => {
    const csv = await glossaryCsvExport(depsOf(c), c.get("user"), containerOf(c.req.valid("param").container_id));
    return c.body(csv, 200, { "content-type": "text/csv; charset=utf-8" });
  })
  .openapi(importCsv, async (c) => {
    const containerId = containerOf(c.req.valid("param").container_id);
    const done = await importGlossaryCsv(depsOf(c), c.get("user"), containerId, await c.req.text(), c.req.valid("query").mode);
    await recheck(c, containerId);
    return c.json(done, 200);
  });

import { createRoute } from "@hono/zod-openapi";
import { MATCH_MIN, TEXT_MAX_CHARS } from "../../domain/translation-memory";
import { parseId } from "../../lib/ids";
import { routeGroup } from "../../lib/router";
import { withProperties } from "../../lib/route-properties";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/schemas";
import { depsOf } from "../../services/deps";
import { TM_CANDIDATES, TM_MATCHES_PER_TEXT, TM_MAX_TEXTS, lookupTranslations } from "../../services/translation-memory";
import { tmMatchView } from "../../views/translation-memory";
import { LookupBody, LookupResult } from "./contracts/translation-memory";

/** The largest body: 50 texts and their contexts of 500 characters, even written as `\u` escapes of surrogate pairs. */
const LOOKUP_BODY_LIMIT = 1024 * 1024;

const lookupRoute = withProperties(
  createRoute({
    method: "post",
    path: "/lookup",
    summary: "Translation memory: earlier translations of the same or similar lines",
    description:
      `Every segment with text in \`source_language\` and \`target_language\` is a unit (every language of a video ` +
      `shares its segments). For each of 1 to ${TM_MAX_TEXTS} \`texts\` (each 1 to ${TEXT_MAX_CHARS} characters once ` +
      `trimmed), at most ${TM_MATCHES_PER_TEXT} units whose source text is similar, best first: \`match\` = ` +
      "round(100 × (1 − edit distance / the longer length)) over tokens (words; characters in scripts written without " +
      "spaces) after search's normalisation (case, width, accents; punctuation dropped); 100 only for the same text; " +
      "101 for the same text whose neighbouring segments' source texts equal `context`'s. Under " +
      `${MATCH_MIN} is not returned. With \`container_id\`, that series' units (\`scope: "series"\`) rank before the ` +
      "catalogue's at equal `match`. Only normal videos of normal containers; a blank translation and a subtitle with " +
      "an open report are not units. Approximate: each shard's newest " +
      `${TM_CANDIDATES} candidate lines per text and scope are scored (docs/api.md, "Translation memory (v4)"). ` +
      "`incomplete: true` when a shard did not answer in time. A user's token, or an official application's signature.",
    request: { body: jsonBody(LookupBody) },
    responses: {
      200: jsonResponse(LookupResult, "the matches of each text, in the order of `texts`"),
      ...errorResponses(400, 401, 403, 404, 413),
    },
  }),
  { security: ["userOrOfficialApp"], writeLimit: "lookups", bodyLimit: LOOKUP_BODY_LIMIT },
);

/** Under `/v4/translation_memory`. */
export const translationMemoryRouter = routeGroup().openapi(lookupRoute, async (c) => {
  const body = c.req.valid("json");
  const { results, incomplete } = await lookupTranslations(depsOf(c), {
    sourceLanguage: body.source_language,
    targetLanguage: body.target_language,
    texts: body.texts,
    containerId: body.container_id === undefined ? undefined : parseId(body.container_id, "c"),
    context: body.context,
  });
  return c.json({ results: results.map((matches) => ({ matches: matches.map(tmMatchView) })), incomplete }, 200);
});

import type { SQL } from "drizzle-orm";
import { containerPlacementQuery, type Placement, shardMapQuery, type ShardMapRow } from "../db/queries/shards";
import { runUnitStatements, type UnitRow, unitsStatement } from "../db/queries/translation-memory";
import { batchWith } from "../db/rider";
import {
  type Context,
  MATCH_EXACT,
  MATCH_IN_CONTEXT,
  type MatchScope,
  bestDistinct,
  candidateGroups,
  contextMatches,
  similarity,
  tmTokens,
} from "../domain/translation-memory";
import { ApiError } from "../lib/errors";
import { type Deps, shardDb } from "./deps";
import { shardTargets } from "./shards";
import { askShard, languageToken, type Target } from "./subtitle-search";

/**
 * Index lines each statement reads at most (one text, one scope, one shard), as the subtitle search's
 * SUBTITLE_SEARCH_CANDIDATES: the bound on rows read per text, whatever the text matches (docs/decisions.md,
 * "Translation memory").
 */
export const TM_CANDIDATES = 60;
/** Texts a lookup may send. */
export const TM_MAX_TEXTS = 50;
/** Matches answered per text, best first. */
export const TM_MATCHES_PER_TEXT = 5;

export interface LookupRequest {
  sourceLanguage: string;
  targetLanguage: string;
  texts: readonly string[];
  /** The series asked first: its units are `series`, every other unit `catalogue`. */
  containerId?: number;
  /** One per text when given: the texts before and after it. */
  context?: readonly Context[];
}

export interface TmMatch extends UnitRow {
  match: number;
  contextMatch: boolean;
  scope: MatchScope;
}

const quoted = (token: string) => `"${token.replace(/"/g, '""')}"`;

/**
 * The FTS5 expression of one text in one scope: its pigeonhole groups over the line's text (any group, every token of
 * it) and the source language over `scope`; the series' scope adds its container, the catalogue's leaves the series
 * out (`NOT`) when one is asked, so its newest candidates are other series' lines, not the series' again. Tokens are
 * letters and digits only (`tmTokens`), each quoted besides, so nothing the client sent acts as FTS5 syntax.
 */
export function unitMatch(groups: readonly string[][], sourceLanguage: string, series?: { only?: number; except?: number }) {
  const body = groups.map((g) => `(${g.map(quoted).join(" AND ")})`).join(" OR ");
  const scope = [languageToken(sourceLanguage), ...(series?.only === undefined ? [] : [`c${series.only}`])];
  const match = [`{body} : (${body})`, ...scope.map((t) => `{scope} : "${t}"`)].join(" AND ");
  return series?.except === undefined ? match : `(${match}) NOT {scope} : "c${series.except}"`;
}

/** One statement of a shard's batch: which text it is for and in which scope. */
interface Ask {
  text: number;
  scope: MatchScope;
  statement: SQL;
}

/**
 * The catalogue's part, one batch: the shard map, and the container's placement when the series is asked (an unknown
 * container is a 404 naming `container_id`).
 */
async function shardsToAsk(deps: Deps, containerId: number | undefined): Promise<{ targets: Target[]; seriesShard?: number }> {
  if (containerId === undefined) {
    const [map] = await batchWith(deps.db, deps.session, [shardMapQuery(deps.db)]);
    return { targets: shardTargets(map as ShardMapRow[]) };
  }
  const [map, rows] = await batchWith(deps.db, deps.session, [shardMapQuery(deps.db), containerPlacementQuery(deps.db, containerId)]);
  const placement = (rows as Placement[])[0];
  if (!placement) throw ApiError.notFoundField("container_id", "no container with this id");
  // Reads follow the directory's shard throughout a move (docs/decisions.md, "Online moves").
  return { targets: shardTargets(map as ShardMapRow[]), seriesShard: placement.shard };
}

/**
 * The matches of every text (docs/api.md, "Translation memory (v4)"): at most TM_MATCHES_PER_TEXT each, best first,
 * in the order of `texts`, and whether a shard is missing from them. Two round trips of wall time: the catalogue (the
 * shards, the series' placement), then every shard at once, each with all its statements for all texts in one batch
 * (the series' on its shard, the catalogue's on every shard). A shard that fails or is slow is left out.
 */
export async function lookupTranslations(deps: Deps, req: LookupRequest): Promise<{ results: TmMatch[][]; incomplete: boolean }> {
  const tokens = req.texts.map(tmTokens);
  const { targets, seriesShard } = await shardsToAsk(deps, req.containerId);
  const statement = (text: number, leftOut: readonly number[], scope: MatchScope) =>
    unitsStatement({
      match: unitMatch(
        candidateGroups(tokens[text]),
        req.sourceLanguage,
        scope === "series" ? { only: req.containerId } : { except: req.containerId },
      ),
      candidates: TM_CANDIDATES,
      sourceLanguage: req.sourceLanguage,
      targetLanguage: req.targetLanguage,
      context: req.context !== undefined,
      leftOut,
    });
  const asked = tokens.flatMap((t, i) => (t.length ? [i] : []));
  const plans = targets.map((target) => {
    const asks: Ask[] = [];
    if (target.shard === seriesShard) {
      // The container's own lines are read on the directory's shard whatever the map leaves out there.
      for (const i of asked) asks.push({ text: i, scope: "series", statement: statement(i, [], "series") });
    }
    for (const i of asked) asks.push({ text: i, scope: "catalogue", statement: statement(i, target.leftOut, "catalogue") });
    return { target, asks };
  });
  if (seriesShard !== undefined && !targets.some((t) => t.shard === seriesShard)) {
    plans.push({
      target: { shard: seriesShard, leftOut: [] },
      asks: asked.map((i) => ({ text: i, scope: "series" as const, statement: statement(i, [], "series") })),
    });
  }
  const open = (shard: number) => shardDb(deps, shard);
  const answers = await Promise.all(
    plans
      .filter((p) => p.asks.length)
      .map(async (p) => ({
        asks: p.asks,
        rows: await askShard(
          p.target,
          open,
          (db) =>
            runUnitStatements(
              db,
              p.asks.map((a) => a.statement),
            ),
          "translation-memory",
        ),
      })),
  );

  // Per text, each unit once: the catalogue's scope leaves the series out, but a line moving between the shards may be
  // read in both for a moment.
  const found = req.texts.map(() => new Map<number, { row: UnitRow; scope: MatchScope }>());
  for (const { asks, rows } of answers) {
    if (!rows) continue;
    asks.forEach((ask, k) => {
      for (const row of rows[k]) {
        const seen = found[ask.text].get(row.id);
        if (!seen || (seen.scope === "catalogue" && ask.scope === "series")) found[ask.text].set(row.id, { row, scope: ask.scope });
      }
    });
  }
  const unitTokens = new Map<number, string[]>();
  const tokensOf = (row: UnitRow) => {
    let t = unitTokens.get(row.id);
    if (!t) unitTokens.set(row.id, (t = tmTokens(row.source)));
    return t;
  };
  const results = found.map((units, i) => {
    const matches: TmMatch[] = [];
    for (const { row, scope } of units.values()) {
      // SQLite's trim knows only the ASCII blanks; a target of other white space (a no-break space) is blank too.
      if (!/\S/u.test(row.target)) continue;
      const match = similarity(tokens[i], tokensOf(row));
      if (match === null) continue;
      const context = req.context?.[i];
      const contextMatch = context !== undefined && contextMatches(context, row);
      matches.push({ ...row, match: match === MATCH_EXACT && contextMatch ? MATCH_IN_CONTEXT : match, contextMatch, scope });
    }
    return bestDistinct(matches, TM_MATCHES_PER_TEXT);
  });
  return { results, incomplete: answers.some((a) => a.rows === null) };
}

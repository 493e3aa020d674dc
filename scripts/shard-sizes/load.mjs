// The subtitle load of `npm run bench:shard-sizes` (scripts/bench-shard-sizes.mjs) and `npm run bench:search`
// (scripts/bench-search.mjs) for one shard, and the check of the counts its triggers derive. Rows are made inside
// SQLite (a recursive CTE of the cue numbers), so no statement carries more than a few kB of SQL, and none writes more
// than 600 rows; each video is one batch (a transaction). The lines' languages and text come from a text model: by
// default ASCII cut from CORPUS (`asciiText`); scripts/bench-search/text.mjs makes multilingual ones.

/** Ids of shard n are n·2^32 + k (src/db/queries/shard-rows.ts, SHARD_ID_RANGE). */
const SHARD_ID_RANGE = 2 ** 32;
export const CUES = 600;
/** Versions kept per track: the import, then two edits. */
const VERSIONS = 3;
/** Translation languages, English first (the usual second language of a track). */
const TRANSLATIONS = ["en", "es", "pt", "fr", "id", "vi", "ar", "ru", "de", "it", "tr", "th", "ja", "ko", "zh"];
/** Text cut from this at a position and length (30-50 characters, 40 on average) that vary with the cue. */
const CORPUS =
  "I never thought we would meet again after all these years. Where were you going so late last night? " +
  "Do not tell anyone what happened here, promise me that much. We have to leave before the rain starts. " +
  "He said the meeting was moved to Thursday morning at nine. You knew about this all along, didn't you? " +
  "Let me explain before you decide anything at all. The doctor will see you now, please come this way. " +
  "Thank you for waiting, I know it has been a long day for everyone.";
const NOW = Date.UTC(2026, 10, 15) / 1000;

const q = (s) => (s === null || s === undefined ? "NULL" : `'${String(s).replaceAll("'", "''")}'`);
const cues = `k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ${CUES})`;

/** The video's three languages: its origin first (originals), then two translations, the same across a container. */
function languagesOf(video) {
  const origin = video.video_origin || video.container_origin;
  const [second, ...rest] = TRANSLATIONS.filter((l) => l !== origin);
  return [origin, second, rest[(video.container_id * 7) % rest.length]];
}

/**
 * A text model: `languages(video)`, the video's three languages, and `line(video, j, lang)`, SQL for the cue `n` of
 * its j-th language: `ctes` (more common table expressions after `k`, each starting with a comma), `from` (what the
 * SELECT reads, `k` among it), `text` and `searchText` (column expressions). This one: ASCII, no index form.
 */
export const asciiText = {
  languages: languagesOf,
  line: (video, j) => ({
    ctes: "",
    from: "k",
    text: `substr(${q(CORPUS)}, 1 + ((${video.video_id} * 7 + n * 131 + ${j * 17}) % 400), 30 + ((n * 37 + ${video.video_id}) % 21))`,
    searchText: "NULL",
  }),
};

/** A contributor of the container (a few per container, so contributions rows repeat users). */
const userOf = (video, j) => 1_000_001 + ((video.container_id * 31 + j * 7 + (video.video_id % 3)) % 5_000);

/** One video's statements: segments, subtitles per language, histories, versions; `ids` is the shard's next id. */
function videoStatements(video, ids, model) {
  const { container_id: cid, video_id: vid } = video;
  const origin = video.video_origin || video.container_origin;
  const langs = model.languages(video);
  const created = NOW - 86_400 * (vid % 700);
  const seg0 = ids.next;
  ids.next += CUES;
  const uploader = userOf(video, 0);
  const sql = [
    `INSERT INTO segments (id, container_id, video_id, start_ms, end_ms, author_id, created_at)
     WITH RECURSIVE ${cues} SELECT ${seg0} + n, ${cid}, ${vid}, n * 3000, n * 3000 + 2400, ${uploader}, ${created} FROM k`,
  ];
  const histories = [[`'segment'`, uploader, "NULL", CUES, `'import:${vid}0:1-${CUES}:segment'`]];
  const versions = [];
  langs.forEach((lang, j) => {
    const sub0 = ids.next;
    ids.next += CUES;
    const user = userOf(video, j);
    const line = model.line(video, j, lang);
    sql.push(
      `INSERT INTO subtitles (id, container_id, segment_id, video_id, language, text, search_text, author_id, author_username,
         version, is_translation, created_at, updated_at)
       WITH RECURSIVE ${cues}${line.ctes}
       SELECT ${sub0} + n, ${cid}, ${seg0} + n, ${vid}, ${q(lang)}, ${line.text}, ${line.searchText}, ${user}, 'user${user}', 1,
         ${lang !== origin ? 1 : 0}, ${created}, ${created} FROM ${line.from}`,
    );
    histories.push([`'subtitle'`, user, q(lang), CUES, `'import:${vid}${j + 1}:1-${CUES}:created'`]);
    for (let number = 1; number <= VERSIONS; number++) {
      const hash = `${vid.toString(16).padStart(16, "0")}${(j * 16 + number).toString(16).padStart(16, "0")}`;
      versions.push(
        `(${ids.next++}, ${cid}, ${vid}, ${q(lang)}, ${number}, ${user}, NULL, '${number === 1 ? "import" : "edit"}', ${CUES}, 100, ` +
          `'${hash}', ${CUES * 62 + number * 40}, NULL, ${created + number * 3600})`,
      );
    }
  });
  sql.push(
    `INSERT INTO subtitle_histories (id, kind, user_id, username, video_id, container_id, language, version, count, source_key, created_at)
     VALUES ${histories.map(([kind, user, lang, count, key]) => `(${ids.next++}, ${kind}, ${user}, 'user${user}', ${vid}, ${cid}, ${lang}, 1, ${count}, ${key}, ${created})`).join(", ")}`,
    `INSERT INTO subtitle_versions (id, container_id, video_id, language, number, author_id, application_id, cause, cues,
       completion, hash, bytes, restored_from, created_at) VALUES ${versions.join(", ")}`,
  );
  return sql;
}

/** The facts of the videos' containers and of the videos, as the catalogue has them (before any subtitle). */
function factsStatements(videos) {
  const containers = [...new Map(videos.map((v) => [v.container_id, v])).values()];
  const chunks = (rows, size) => Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));
  return [
    ...chunks(containers, 200).map(
      (rows) =>
        `INSERT INTO container_facts (container_id, state, origin_language) VALUES ${rows
          .map((c) => `(${c.container_id}, ${q(c.container_state)}, ${q(c.container_origin)})`)
          .join(", ")}`,
    ),
    ...chunks(videos, 200).map(
      (rows) =>
        `INSERT INTO video_facts (video_id, container_id, state, origin_language, number) VALUES ${rows
          .map((v) => `(${v.video_id}, ${v.container_id}, ${q(v.video_state)}, ${q(v.video_origin)}, ${v.number ?? "NULL"})`)
          .join(", ")}`,
    ),
  ];
}

/**
 * Loads `videos` (rows of the catalogue: ids, states, origins) into shard `n` with the lines of `model` (asciiText
 * unless given); the seconds each step took.
 */
export async function shardLoad(d1, n, videos, log, model = asciiText) {
  const t0 = performance.now();
  for (const s of factsStatements(videos)) await d1.prepare(s).run();
  const factsSeconds = (performance.now() - t0) / 1000;
  const ids = { next: n * SHARD_ID_RANGE + 1 };
  const t1 = performance.now();
  for (let i = 0; i < videos.length; i++) {
    await d1.batch(videoStatements(videos[i], ids, model).map((s) => d1.prepare(s)));
    if ((i + 1) % 100 === 0 || i + 1 === videos.length) {
      log(
        `${i + 1}/${videos.length} videos, ${((i + 1) * CUES * 3).toLocaleString("en-US")} subtitles, ${((performance.now() - t1) / 1000).toFixed(1)} s`,
      );
    }
  }
  // The counter a writer would go on from (src/db/queries/shard-rows.ts, nextShardIdStatement).
  await d1
    .prepare(
      `INSERT INTO shard_ids (shard, next_id) VALUES (${n}, ${ids.next}) ON CONFLICT (shard) DO UPDATE SET next_id = excluded.next_id`,
    )
    .run();
  return { videos: videos.length, factsSeconds, loadSeconds: (performance.now() - t1) / 1000 };
}

/**
 * Rows per table, and whether the derived counts match the rows: the per-container counts hold every subtitle of a
 * normal video, the shard's totals those of normal containers, each subtitle's flag says whether its language is
 * its video's origin, and contributions add up the histories' counts.
 */
export async function verifyShard(d1) {
  const counts = await d1
    .prepare(
      `SELECT (SELECT count(*) FROM container_facts) AS container_facts, (SELECT count(*) FROM video_facts) AS video_facts,
         (SELECT count(*) FROM segments) AS segments, (SELECT count(*) FROM subtitles) AS subtitles,
         (SELECT count(*) FROM subtitle_histories) AS subtitle_histories, (SELECT count(*) FROM subtitle_versions) AS subtitle_versions,
         (SELECT count(*) FROM container_language_counts) AS container_language_counts,
         (SELECT count(*) FROM language_counts) AS language_counts, (SELECT count(*) FROM contributions) AS contributions`,
    )
    .first();
  const check = await d1
    .prepare(
      `SELECT
         (SELECT coalesce(sum(originals + translations), 0) FROM container_language_counts) AS counted,
         (SELECT count(*) FROM subtitles s JOIN video_facts v ON v.video_id = s.video_id WHERE v.state = 'normal') AS normal_rows,
         (SELECT count(*) FROM (
            SELECT language, sum(originals) AS o, sum(translations) AS t FROM container_language_counts
            WHERE container_id IN (SELECT container_id FROM container_facts WHERE state = 'normal') GROUP BY language
            EXCEPT SELECT language, originals, translations FROM language_counts WHERE originals <> 0 OR translations <> 0)) AS totals_missing,
         (SELECT count(*) FROM (
            SELECT language, originals, translations FROM language_counts WHERE originals <> 0 OR translations <> 0
            EXCEPT SELECT language, sum(originals), sum(translations) FROM container_language_counts
            WHERE container_id IN (SELECT container_id FROM container_facts WHERE state = 'normal') GROUP BY language)) AS totals_extra,
         (SELECT count(*) FROM subtitles s JOIN video_facts v ON v.video_id = s.video_id
            JOIN container_facts c ON c.container_id = v.container_id
            WHERE s.is_translation <> (s.language <> coalesce(nullif(v.origin_language, ''), c.origin_language))) AS wrong_flags,
         (SELECT coalesce(sum(total), 0) FROM contributions) AS contributed,
         (SELECT coalesce(sum(count), 0) FROM subtitle_histories) AS history_count`,
    )
    .first();
  const ok =
    check.counted === check.normal_rows &&
    check.totals_missing === 0 &&
    check.totals_extra === 0 &&
    check.wrong_flags === 0 &&
    check.contributed === check.history_count;
  return { ok, counts, ...check };
}

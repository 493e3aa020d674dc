// Demo data for the local D1 (docs/spec/design.md, "Demo data"): applications, users, a catalogue of films, series, news and
// artists with videos, titles, descriptions, licences, localisation (segments, subtitles, histories,
// completions), playback streams, the featured list 1l (the on-air 2l and upcoming 6l follow the containers' flags)
// and a little community activity. The parts live in scripts/demo/; this file puts them together in order.
//
// demoSeed() resolves to plain SQL for `wrangler d1 execute --file` on the catalogue, and the rows that live on the
// shards (the subtitle family and the timed comments: scripts/demo/shards.mjs writes them once the catalogue's
// directory has placed their containers). Both are:
// - deterministic: a seeded PRNG and a fixed clock, so every call returns the same;
// - idempotent: every row has an explicit key and is written with INSERT OR IGNORE, so a second run changes nothing
//   (and fires none of the derived-document triggers of migration 0003).
// The subtitle completions are not here: seedLocal computes them once the shards hold the subtitles, with the
// completion job's own statements (scripts/demo/completions.mjs); their updated_at follows the real clock, as the
// job's upsert stamps it.
// It also gives the playback manifests the stream rows point at (scripts/demo/streams.mjs), which seedLocal puts in
// the local R2 under content-addressed keys: the same bytes, so the same keys, every run.
// Password hashes and the titles' index form come from the app's own code (scripts/demo/load-app-code.mjs), never copies.

import { MANAGED } from "./demo/catalogue-data.mjs";
import { followRows, glossaryRows, listItemRows, messagingRows, notificationRows, timedCommentRows } from "./demo/community.mjs";
import { containerDescriptionRows, containerGenreRows, containerTitleRows, defineContainers, licenseRows } from "./demo/containers.mjs";
import { SEED, insertRows, randomTools } from "./demo/core.mjs";
import { loadAppCode } from "./demo/load-app-code.mjs";
import { demoShardRows } from "./demo/shards.mjs";
import { defineLocalisation, withChecks } from "./demo/subtitles.mjs";
import { STREAM_COLUMNS, defineStreams } from "./demo/streams.mjs";
import { MANAGER, applicationRows, userRows } from "./demo/users.mjs";
import { defineVideos, strip, videoDescriptionRows, videoTitleRows } from "./demo/videos.mjs";

const CONTAINER_COLUMNS = [
  "id",
  "type",
  "origin_country",
  "origin_language",
  "hosted",
  "licensed",
  "adult",
  "on_air",
  "upcoming",
  "state",
  "poster_url",
  "sort_title",
  "views",
  "views_recent",
  "trending",
  "average_rating",
  "rating_count",
  "release_date",
  "air_time",
  "newest_video_at",
  "created_at",
  "updated_at",
];
const VIDEO_COLUMNS = [
  "id",
  "container_id",
  "type",
  "number",
  "duration",
  "state",
  "origin_language",
  "hd",
  "poster_url",
  "views",
  "created_at",
  "updated_at",
];
const TEXT_COLUMNS = ["resource_kind", "resource_id", "language", "text", "updated_at"];
/** Titles carry their index form for v4 search (docs/decisions.md, "Search (v4)"), as the API's title writers store it. */
const TITLE_COLUMNS = [...TEXT_COLUMNS, "search_text"];

/**
 * `{ sql, manifests, shardRows }`: SQL that fills a freshly migrated catalogue database with the demo data
 * (identical on every call, safe to re-run), the playback manifests (`{ key, text, contentType }`) its stream rows
 * point at, and the rows that go to their containers' shards (`shardSeedSql` of scripts/demo/shards.mjs, once the
 * directory placed them).
 */
export async function demoSeed() {
  const app = await loadAppCode();
  const withIndexForm = (rows) => rows.map((t) => ({ ...t, search_text: app.indexForm(t.text) }));
  const users = await userRows(app);
  // Everything below draws from one generator: the order of the calls that take `r` decides the data.
  const r = randomTools(SEED);
  const containers = defineContainers(r);
  const videos = defineVideos(r, containers);
  const { segments, subtitles, histories } = defineLocalisation(r, containers, videos);
  const { subscriptions, markers } = followRows(videos);
  const messaging = messagingRows();
  const streams = defineStreams(containers, videos);
  const glossary = glossaryRows(containers);

  let comments = [];
  const keepApart = (rows) => {
    comments = rows;
    return [];
  };
  // Parents before children: D1 enforces foreign keys.
  const statements = [
    ...insertRows("applications", ["id", "name", "official", "unhosted_access", "secret", "created_at"], applicationRows()),
    ...insertRows(
      "users",
      ["id", "username", "email", "name", "password_hash", "staff", "email_verified", "created_at", "updated_at"],
      users,
    ),
    ...insertRows("containers", CONTAINER_COLUMNS, containers),
    ...insertRows("container_genres", ["container_id", "genre_id"], containerGenreRows(containers)),
    ...insertRows("licenses", ["container_id", "region", "platform"], licenseRows(r, containers)),
    ...insertRows(
      "container_managers",
      ["container_id", "user_id"],
      MANAGED.map((id) => ({ container_id: id, user_id: MANAGER })),
    ),
    ...insertRows(
      "glossary_terms",
      ["id", "container_id", "term", "language", "translations", "status", "note", "case_sensitive", "created_at", "updated_at"],
      glossary,
    ),
    ...insertRows("titles", TITLE_COLUMNS, withIndexForm(containerTitleRows(containers))),
    ...insertRows("descriptions", TEXT_COLUMNS, containerDescriptionRows(r, containers)),
    ...insertRows("videos", VIDEO_COLUMNS, strip(videos)),
    ...insertRows("titles", TITLE_COLUMNS, withIndexForm(videoTitleRows(videos))),
    ...insertRows("descriptions", TEXT_COLUMNS, videoDescriptionRows(r, containers, videos)),
    ...insertRows("playback_streams", STREAM_COLUMNS, streams.rows),
    ...insertRows("list_items", ["list_id", "position", "resource_kind", "resource_id"], listItemRows(videos)),
    // Timed comments live on the shards (docs/decisions.md, "Shards"): drawn here, in their turn of `r`, kept apart.
    ...keepApart(timedCommentRows(r, videos)),
    ...insertRows("subscriptions", ["user_id", "resource_kind", "resource_id", "created_at"], subscriptions),
    ...insertRows("markers", ["user_id", "resource_kind", "resource_id", "created_at"], markers),
    ...insertRows("threads", ["id", "created_by", "created_at", "updated_at"], messaging.threads),
    ...insertRows(
      "thread_participants",
      ["thread_id", "user_id", "unread", "deleted", "in_inbox", "in_sent", "last_message_at"],
      messaging.participants,
    ),
    ...insertRows("messages", ["id", "thread_id", "sender_id", "content", "created_at"], messaging.messages),
    ...insertRows(
      "notifications",
      ["id", "user_id", "container_id", "sender_id", "job_id", "content", "unread", "created_at"],
      notificationRows(containers),
    ),
  ];
  const shardRows = demoShardRows({
    containers,
    videos,
    users,
    segments,
    subtitles: withChecks(app, {
      segments,
      subtitles: withIndexForm(subtitles),
      videos,
      glossary: Map.groupBy(glossary, (t) => t.container_id),
    }),
    histories,
    timedComments: comments,
  });
  return { sql: `${statements.join(";\n")};\n`, manifests: streams.manifests, shardRows };
}

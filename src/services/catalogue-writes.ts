import type { DB } from "../db/client";
import { containerQuery } from "../db/queries/catalogue";
import {
  containerVideoTypes,
  deleteContainerRow,
  deleteGenreLinks,
  deleteLicenses,
  deleteManagers,
  deleteText,
  deleteVideoRow,
  findGenres,
  findUserIds,
  insertContainer,
  insertGenreLinks,
  insertLicenses,
  insertManagers,
  insertTexts,
  insertVideo,
  newContainerId,
  newVideoId,
  selectContainer,
  selectVideo,
  touchResource,
  updateContainerRow,
  updateVideoRow,
  upsertText,
  type LicenseRow,
  type Statement,
  type TextKind,
  type TextOwner,
} from "../db/queries/catalogue-writes";
import {
  containerDeletedEvent,
  containerTextRemovedEvent,
  containerUpdatedEvent,
  videoSubtitlesDeletedEvents,
  videoTextLanguages,
} from "../db/queries/catalogue-events";
import { containerDeleteWeight, shardDeleteWeight } from "../db/queries/container-delete";
import { containerPlacementQuery, videoPlacementQuery } from "../db/queries/shards";
import { recordEvent } from "../db/queries/webhook-events";
import type { CONTAINER_TYPES, VIDEO_TYPES, containers, videos } from "../db/schema";
import { ApiError } from "../lib/errors";
import { tryParseId } from "../lib/ids";
import type { ContainerCreate, ContainerUpdate, VideoCreate, VideoUpdate } from "../routes/v4/contracts/catalogue-writes";
import type { User } from "../types";
import { STAFF_ONLY_FIELDS, containerColumns, type ContainerRow, type VideoRow } from "../db/schema";
import { CONTAINER_DELETE_SYNC_ROWS } from "./container-delete";
import type { Deps } from "./deps";
import { readShard } from "./shards";
import { afterWrite, type WriteEffects } from "./after-write";
import { deleteVideoSnapshots, removeContainerVersions } from "./subtitle-retention";

/**
 * Writes of containers, videos, titles and descriptions. Each takes the request's dependencies and drops the KV
 * copies it makes stale (all.json) itself, so no caller can forget to.
 */

type ContainerType = (typeof CONTAINER_TYPES)[number];
type VideoType = (typeof VIDEO_TYPES)[number];

/** The video types each container type holds. */
const VIDEO_TYPES_OF: Record<ContainerType, readonly VideoType[]> = {
  series: ["episode", "clip", "trailer"],
  film: ["movie", "clip", "trailer"],
  news: ["news_clip", "clip"],
  artist: ["music_video", "clip"],
};

/** Artists take the music genre set; every other container type the general set. */
const genreSetOf = (type: ContainerType) => (type === "artist" ? "music" : "general");

/** Container fields only staff may write; a manager sending any of them is refused (403) as a whole. */
const STAFF_ONLY = ["type", "state", "managers", "licenses", ...STAFF_ONLY_FIELDS];

// ---- validation against stored data ----

/** Wire genre ids → integers of the set the container type takes; anything else is a 400 naming `genres`. */
async function resolveGenres(db: DB, wireIds: string[], type: ContainerType) {
  const ids = [...new Set(wireIds.map((g) => tryParseId(g, "g")!))];
  const found = new Map((await findGenres(db, ids)).map((g) => [g.id, g.set]));
  const set = genreSetOf(type);
  const wrong = ids.filter((id) => found.get(id) !== set);
  if (wrong.length) {
    const list = wrong.map((g) => `${g}g`).join(", ");
    throw ApiError.field("genres", `not genres of the ${set} set, which containers of type ${type} take: ${list}`);
  }
  return ids;
}

async function resolveManagers(db: DB, wireIds: string[]) {
  const ids = [...new Set(wireIds.map((u) => tryParseId(u, "u")!))];
  const found = new Set((await findUserIds(db, ids)).map((u) => u.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw ApiError.field("managers", `no such users: ${missing.map((u) => `${u}u`).join(", ")}`);
  return ids;
}

function licenseRows(licenses: Array<{ region: string; platforms: Array<LicenseRow["platform"]> }>) {
  const rows = new Map<string, LicenseRow>();
  for (const { region, platforms } of licenses) {
    for (const platform of platforms) rows.set(`${region}/${platform}`, { region, platform });
  }
  return [...rows.values()];
}

function assertVideoTypeFits(type: VideoType, containerType: ContainerType) {
  if (!VIDEO_TYPES_OF[containerType].includes(type)) {
    throw ApiError.field("type", `a ${containerType} holds ${VIDEO_TYPES_OF[containerType].join(", ")} videos, not ${type}`);
  }
}

/** Runs the statements as one batch (one transaction); the last one is the read-back select. */
async function runBatch<T>(db: DB, statements: Statement[]): Promise<T> {
  const results = (await db.batch(statements as [Statement, ...Statement[]])) as unknown[];
  return results[results.length - 1] as T;
}

// ---- containers ----

export async function createContainer(deps: Deps, body: ContainerCreate): Promise<ContainerRow> {
  const { db } = deps;
  const genreIds = body.genres ? await resolveGenres(db, body.genres, body.type) : [];
  const managerIds = body.managers ? await resolveManagers(db, body.managers) : [];
  const id = newContainerId;
  const rows = await runBatch<ContainerRow[]>(db, [
    insertContainer(db, {
      type: body.type,
      originCountry: body.origin.country,
      originLanguage: body.origin.language,
      // Fields not sent keep their column defaults (docs/api.md, "Catalogue writes (v4)").
      ...containerColumns({ top: body, flags: body.flags }),
      state: body.state ?? "normal",
      posterUrl: body.images?.poster?.url ?? null,
    }),
    ...insertTexts(db, "title", "c", id, body.titles),
    ...insertTexts(db, "description", "c", id, body.descriptions ?? {}),
    ...insertGenreLinks(db, id, genreIds),
    ...insertLicenses(db, id, licenseRows(body.licenses ?? [])),
    ...insertManagers(db, id, managerIds),
    selectContainer(db, id),
  ]);
  await afterWrite(deps, { listings: true, scopes: ["catalogue"] });
  return rows[0];
}

/** Which of the staff-only fields a body sends. */
function staffOnlyFields(body: ContainerUpdate) {
  return STAFF_ONLY.filter((path) => {
    const [head, sub] = path.split(".") as [keyof ContainerUpdate, string?];
    const value = body[head];
    return sub ? value !== undefined && (value as Record<string, unknown>)[sub] !== undefined : value !== undefined;
  });
}

/**
 * PUT: only the fields sent change; genres, licences and managers are replaced as a whole. Returns the row;
 * a change of type or state (what the catalogue listings cache) drops the cached listings.
 */
export async function updateContainer(deps: Deps, user: User, container: ContainerRow, body: ContainerUpdate) {
  const { db } = deps;
  if (!user.staff) {
    const refused = staffOnlyFields(body);
    if (refused.length) throw ApiError.forbidden(`only staff may change ${refused.join(", ")}`);
  }
  const type = body.type ?? container.type;
  if (type !== container.type) {
    const misfits = (await containerVideoTypes(db, container.id)).filter((t) => !VIDEO_TYPES_OF[type].includes(t));
    if (misfits.length) {
      throw ApiError.field("type", `the container holds ${misfits.join(", ")} videos, which a ${type} cannot hold`);
    }
    if (!body.genres && (container.doc?.genres.length ?? 0) > 0 && genreSetOf(type) !== genreSetOf(container.type)) {
      throw ApiError.field("genres", `a ${type} takes the ${genreSetOf(type)} genre set: send genres with the new type`);
    }
  }
  const genreIds = body.genres ? await resolveGenres(db, body.genres, type) : undefined;
  const managerIds = body.managers ? await resolveManagers(db, body.managers) : undefined;

  const set: Partial<typeof containers.$inferInsert> = {};
  if (body.type) set.type = body.type;
  if (body.state) set.state = body.state;
  if (body.origin?.country !== undefined) set.originCountry = body.origin.country;
  if (body.origin?.language !== undefined) set.originLanguage = body.origin.language;
  Object.assign(set, containerColumns({ top: body, flags: body.flags }));
  if (body.images?.poster !== undefined) set.posterUrl = body.images.poster?.url ?? null;

  const statements: Statement[] = [];
  const touched = Object.keys(set).length > 0 || genreIds || body.licenses || managerIds;
  if (touched) statements.push(updateContainerRow(db, container.id, set));
  if (genreIds) statements.push(deleteGenreLinks(db, container.id), ...insertGenreLinks(db, container.id, genreIds));
  if (body.licenses) {
    statements.push(deleteLicenses(db, container.id), ...insertLicenses(db, container.id, licenseRows(body.licenses)));
  }
  if (managerIds) statements.push(deleteManagers(db, container.id), ...insertManagers(db, container.id, managerIds));

  const typeChanged = body.type !== undefined && body.type !== container.type;
  const listingsChanged = typeChanged || (body.state !== undefined && body.state !== container.state);
  const event = recordEvent(db, containerUpdatedEvent(container.id));
  const updated = statements.length
    ? (await runBatch<ContainerRow[]>(db, [...statements, event, selectContainer(db, container.id)]))[0]
    : container;
  // A change of state or origin language left a shard_fact_changes row in the update's statement.
  if (statements.length) await afterWrite(deps, { shardFacts: true, listings: listingsChanged, scopes: ["catalogue"], events: true });
  return updated;
}

/**
 * Staff only (the route's middleware), so any state: 404 only when missing. A container that takes at most
 * CONTAINER_DELETE_SYNC_ROWS rows with it goes in one statement (foreign keys and the cleanup triggers take
 * everything that hangs off it): "deleted". A larger one would hold D1 for seconds, so it is only hidden
 * (blocked) here, and the caller queues its removal in chunks (src/jobs/container-delete.ts): "hidden".
 */
export async function deleteContainer(deps: Deps, containerId: number): Promise<"deleted" | "hidden"> {
  const { db, env } = deps;
  const [found, placed] = await db.batch([containerQuery(db, containerId), containerPlacementQuery(db, containerId)]);
  if (!found[0]) throw ApiError.notFound();
  // What the delete takes with it: its catalogue rows and, through the cleanup this request drains, its shard rows
  // (on both shards while it moves), each weighed up to the threshold, in parallel.
  const cap = CONTAINER_DELETE_SYNC_ROWS + 1;
  const placement = placed[0];
  const [catalogueRows, shardRows] = await Promise.all([
    containerDeleteWeight(db, containerId, cap),
    placement ? shardDeleteWeight(readShard(deps, placement), containerId, cap) : 0,
  ]);
  const small = catalogueRows + shardRows * (placement?.movingTo ? 2 : 1) <= CONTAINER_DELETE_SYNC_ROWS;
  // Hidden is not deleted: container.deleted waits for the job's last step (src/services/container-delete.ts).
  // Version snapshots live in R2, which no foreign key reaches: they go first, with their rows.
  if (small) await removeContainerVersions({ db, env }, containerId);
  if (small) await db.batch([containerDeletedEvent(db, containerId), deleteContainerRow(db, containerId)]);
  else await updateContainerRow(db, containerId, { state: "blocked" }).run();
  // Deleted: its shard rows follow through the cleanup the delete recorded. Hidden: the state is a shard fact.
  await afterWrite(deps, { shardFacts: !small, shardCleanups: small, listings: true, scopes: ["catalogue"], events: small });
  return small ? "deleted" : "hidden";
}

// ---- videos ----

/**
 * `blocked` is staff's (docs/decisions.md, "Catalogue writes"): a container's managers may move a video between
 * normal and pending, but neither block one nor move one that staff blocked out of it. Sending the state it already
 * has changes nothing and is allowed, so a client that writes back the object it read is not refused.
 */
function refuseBlockedChange(user: User, from: VideoRow["state"] | undefined, to: VideoRow["state"] | undefined) {
  if (user.staff || to === undefined || to === from) return;
  if (to === "blocked" || from === "blocked") throw ApiError.forbidden("only staff may block a video or unblock one");
}

export async function createVideo(deps: Deps, user: User, container: ContainerRow, body: VideoCreate): Promise<VideoRow> {
  const { db } = deps;
  assertVideoTypeFits(body.type, container.type);
  refuseBlockedChange(user, undefined, body.state);
  const id = newVideoId;
  const rows = await runBatch<VideoRow[]>(db, [
    insertVideo(db, {
      containerId: container.id,
      type: body.type,
      number: body.number ?? null,
      duration: body.duration ?? 0,
      state: body.state ?? "normal",
      originLanguage: body.origin?.language ?? "",
      hd: body.flags?.hd ?? false,
      posterUrl: body.images?.poster?.url ?? null,
    }),
    ...insertTexts(db, "title", "v", id, body.titles),
    ...insertTexts(db, "description", "v", id, body.descriptions ?? {}),
    selectVideo(db, id),
  ]);
  await afterWrite(deps, { scopes: ["catalogue"] });
  return rows[0];
}

export async function updateVideo(deps: Deps, user: User, video: VideoRow, body: VideoUpdate): Promise<VideoRow> {
  const { db } = deps;
  refuseBlockedChange(user, video.state, body.state);
  const set: Partial<typeof videos.$inferInsert> = {};
  if (body.number !== undefined) set.number = body.number;
  if (body.duration !== undefined) set.duration = body.duration;
  if (body.origin) set.originLanguage = body.origin.language;
  if (body.flags?.hd !== undefined) set.hd = body.flags.hd;
  if (body.images?.poster !== undefined) set.posterUrl = body.images.poster?.url ?? null;
  if (body.state) set.state = body.state;
  if (!Object.keys(set).length) return video;
  const rows = await runBatch<VideoRow[]>(db, [updateVideoRow(db, video.id, set), selectVideo(db, video.id)]);
  // A change of state, origin language or number left a shard_fact_changes row in the update's statement.
  await afterWrite(deps, { shardFacts: true, scopes: ["catalogue"] });
  return rows[0];
}

/**
 * The video's subtitles go with it: subtitles.updated (`deletion`) for each language it had text in. Those languages
 * are read on its container's shard first (its placement: one catalogue read), then the catalogue batch records the
 * events and deletes the row (docs/decisions.md, "Subtitles on the shards"); its shard rows follow through the
 * shard_cleanups outbox the delete fills, drained here. Its subtitle versions' snapshot objects in R2 go after it
 * (src/services/subtitle-retention.ts), last, so that a failing R2 call costs only objects left behind.
 */
export async function deleteVideo(deps: Deps, user: User, video: Pick<VideoRow, "id" | "state">) {
  const { db } = deps;
  // Deleting a video staff blocked would undo the block and its record: staff's, like the block itself.
  if (!user.staff && video.state === "blocked") throw ApiError.forbidden("only staff may delete a video staff blocked");
  const videoId = video.id;
  const [placement] = await videoPlacementQuery(db, videoId).all();
  const languages = placement ? await videoTextLanguages(readShard(deps, placement), videoId) : [];
  const [events] = await db.batch([videoSubtitlesDeletedEvents(db, videoId, languages), deleteVideoRow(db, videoId)]);
  // The video's shard rows go through the shard_cleanups row its delete left in the same statement.
  await afterWrite(deps, { shardCleanups: true, scopes: ["catalogue"], events: events.meta.changes > 0 });
  await deleteVideoSnapshots(deps.env, videoId);
}

// ---- titles and descriptions ----

/**
 * A container's titles feed the KV-cached listings (all.json); descriptions and video titles do not. Every text is on
 * the edge. A container's text write recorded container.updated.
 */
const textEffects = (kind: TextKind, owner: TextOwner): WriteEffects => ({
  listings: owner.kind === "c" && kind === "title",
  scopes: ["catalogue"],
  events: owner.kind === "c",
});

/** Create or replace one title or description, and bump the owner's `updated_at` (a container's: container.updated), in one batch. */
export async function putText(deps: Deps, kind: TextKind, owner: TextOwner, language: string, text: string) {
  const { db } = deps;
  const write = [upsertText(db, kind, owner, language, text), touchResource(db, owner)] as const;
  if (owner.kind === "c") await db.batch([...write, recordEvent(db, containerUpdatedEvent(owner.id))]);
  else await db.batch(write);
  await afterWrite(deps, textEffects(kind, owner));
}

/** Delete one title or description: 404 when there is none; the English title stays (400). */
export async function removeText(deps: Deps, kind: TextKind, owner: TextOwner, language: string) {
  const { db } = deps;
  if (kind === "title" && language === "en") {
    throw ApiError.field("language_code", "the English title cannot be deleted (replace it with POST .../titles.json)");
  }
  const touch = touchResource(db, owner, { kind, language });
  const remove = deleteText(db, kind, owner, language);
  // A container's container.updated goes before the delete, which it needs to see the text (none if missing: a 404).
  const deleted =
    owner.kind === "c"
      ? (await db.batch([touch, containerTextRemovedEvent(db, kind, owner.id, language), remove]))[2]
      : (await db.batch([touch, remove]))[1];
  if (!deleted.length) throw ApiError.notFound();
  await afterWrite(deps, textEffects(kind, owner));
}

import { api, createApplication, signedInUser } from ".";
import { addVideoTexts, createContainer, createVideo } from "./catalogue";
import { createSubtitles } from "./localisation";
import { lastJobId } from "./jobs";
import { type ReadTargets, settleJobs } from "./public-reads";
import { v3Token } from "./v3";

/**
 * The data every write of test/middleware/cache-writes.test.ts acts on, and its public reads show: a series with
 * two videos (titles, descriptions, ko originals and en translations by its manager), a film with a movie, a curated
 * list, a timed comment. `state` carries ids from one write to a later one (a suggestion to apply, a stream to replace).
 */
export async function writeScene() {
  const [staff, manager, commenter, reporter] = await Promise.all([
    signedInUser({ staff: true }),
    signedInUser(),
    signedInUser(),
    signedInUser(),
  ]);
  const [official, partner] = await Promise.all([createApplication({ official: true }), createApplication()]);
  const series = await createContainer({
    title: "Invalidation series",
    titles: { ko: "무효화" },
    descriptions: { en: "About", ko: "설명" },
    managers: [manager.user.id],
    genres: [18],
  });
  const first = await createVideo(series.id, { number: 1, title: "Episode 1" });
  const second = await createVideo(series.id, { number: 2, title: "Episode 2" });
  await addVideoTexts(first.id);
  const subs = await createSubtitles(first.id, 2, { ko: 2, en: 2 }, { authorId: manager.user.id });
  const film = await createContainer({ type: "film", title: "Invalidation film", genres: [18] });
  const movie = await createVideo(film.id, { type: "movie", title: "Invalidation movie" });
  const news = await createContainer({ type: "news", title: "Invalidation news" });
  const artist = await createContainer({ type: "artist", title: "Invalidation artist" });
  await createVideo(news.id, { type: "news_clip", title: "Invalidation news clip" });
  await createVideo(artist.id, { type: "music_video", title: "Invalidation music video" });

  const since = await lastJobId();
  const made = await api("/v4/lists.json", { method: "POST", token: staff.token, json: { titles: { en: "Invalidation list" } } });
  const list = ((await made.json()) as { id: string }).id;
  await api(`/v4/lists/${list}.json`, { method: "PUT", token: staff.token, json: { videos: [first.wireId, series.wireId] } });
  await api(`/v4/videos/${first.wireId}/timed_comments/en.json`, {
    method: "POST",
    token: commenter.token,
    json: { time: 500, comment: "first" },
  });
  await settleJobs(since, "the scene");

  const targets: ReadTargets = {
    containers: { series: series.wireId, film: film.wireId, news: news.wireId, artist: artist.wireId },
    video: first.wireId,
    list,
    user: manager.id,
    containerN: series.id,
    movieN: movie.id,
    v3Token: await v3Token(),
    trackReader: { token: manager.token, app: official.wireId },
  };
  return {
    staff,
    manager,
    commenter,
    reporter,
    official: official.wireId,
    partner: partner.wireId,
    series,
    first,
    second,
    list,
    original: subs.at("ko", 0).wireId,
    translation: subs.at("en", 1).wireId,
    targets,
    /** Every video whose timed comments or subtitle tracks a read shows. */
    videoIds: [first.id, second.id, movie.id],
    state: {} as Record<string, string>,
  };
}
export type WriteScene = Awaited<ReturnType<typeof writeScene>>;

/**
 * A write that is sent: `write` sends it (after `prepare`), answering `ok`. One that may change what a public read
 * shows is checked on its own; one that `showsNothing` (the reason given) is checked with its neighbours that show
 * nothing either, and no public read may change across them.
 */
export interface EffectfulWrite {
  route: string;
  ok: number;
  showsNothing?: string;
  prepare?: (s: WriteScene) => Promise<void>;
  write: (s: WriteScene) => Promise<Response>;
}
/** A write the test does not send, as no public read can show what it changes: the reason. The table of every write
 * route is `WRITES` in ./write-effects.ts. */
export interface PrivateWrite {
  route: string;
  noPublicEffect: string;
}
export type WriteEntry = EffectfulWrite | PrivateWrite;

const OWN = "a user's own list, read with their token only (its GET is cache: user)";
const PRIVATE_MESSAGE = "a private message thread, read by its two users with their tokens only";
const NOTIFICATION = "notifications land in users' inboxes, read with their tokens only";
const WEBHOOK = "an application's own webhook endpoints and deliveries, read with its signature only";

/** The writes the test does not send, each with the reason no public read can show what it changes. */
export const UNSENT: PrivateWrite[] = [
  { route: "POST /oauth/token", noPublicEffect: "issues a token; public v3 reads are the same under every client-credentials token" },
  { route: "POST /v4/subtitle_completions", noPublicEffect: "a read sent as POST (its answer is cache: none); it writes nothing" },
  { route: "POST /v4/users/:user_id/subtitle_histories", noPublicEffect: "a read sent as POST; it writes nothing" },
  { route: "POST /v4/users/:user_id/markers", noPublicEffect: OWN },
  { route: "DELETE /v4/users/:user_id/markers/:resource_id", noPublicEffect: OWN },
  { route: "POST /v4/users/:user_id/subscriptions", noPublicEffect: OWN },
  { route: "DELETE /v4/users/:user_id/subscriptions/:resource_id", noPublicEffect: OWN },
  { route: "POST /v4/users/:user_id/threads", noPublicEffect: PRIVATE_MESSAGE },
  { route: "PUT /v4/users/:user_id/threads/:thread_id", noPublicEffect: PRIVATE_MESSAGE },
  { route: "DELETE /v4/users/:user_id/threads/:thread_id", noPublicEffect: PRIVATE_MESSAGE },
  { route: "POST /v4/users/:user_id/threads/:thread_id/messages", noPublicEffect: PRIVATE_MESSAGE },
  { route: "POST /v4/notifications", noPublicEffect: NOTIFICATION },
  { route: "POST /v4/users/:user_id/notifications", noPublicEffect: NOTIFICATION },
  { route: "PUT /v4/users/:user_id/notifications/:notification_id", noPublicEffect: NOTIFICATION },
  { route: "DELETE /v4/users/:user_id/notifications/:notification_id", noPublicEffect: NOTIFICATION },
  { route: "POST /v4/webhooks", noPublicEffect: WEBHOOK },
  { route: "PATCH /v4/webhooks/:webhook_id", noPublicEffect: WEBHOOK },
  { route: "PUT /v4/webhooks/:webhook_id", noPublicEffect: WEBHOOK },
  { route: "DELETE /v4/webhooks/:webhook_id", noPublicEffect: WEBHOOK },
  { route: "POST /v4/webhooks/:webhook_id/secret", noPublicEffect: WEBHOOK },
  { route: "POST /v4/webhooks/:webhook_id/ping", noPublicEffect: WEBHOOK },
  { route: "POST /v4/webhooks/:webhook_id/deliveries/:delivery_id/redeliver", noPublicEffect: WEBHOOK },
];

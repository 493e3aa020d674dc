import { eq } from "drizzle-orm";
import { insertJob } from "../../src/db/queries/jobs";
import { jobs } from "../../src/db/schema";
import { api, db } from ".";
import { minimal } from "./container-writes";
import { mpd } from "./playback";
import { type EffectfulWrite, UNSENT, type WriteEntry, type WriteScene } from "./write-scene";

const idOf = async (res: Response) => ((await res.clone().json()) as { id: string | number }).id;
const asStaff = (s: WriteScene) => ({ token: s.staff.token });
const asManager = (s: WriteScene) => ({ token: s.manager.token, app: s.official });
const track = (s: WriteScene) => `/v4/videos/${s.first.wireId}/subtitle_tracks`;
const text = (field: "title" | "description") => ({ language_code: "fr", [field]: `fr ${field}` });

/** The series' glossary (`.json`, `.csv`, or `/<term id>.json` after it), and the id of its oldest term. */
const glossary = (s: WriteScene, rest: string) => `/v4/containers/${s.series.wireId}/glossary${rest}`;
const firstTerm = async (s: WriteScene) =>
  ((await (await api(glossary(s, ".json"), asStaff(s))).json()) as { response: { id: string }[] }).response[0].id;

const STREAMS = "playback streams are read with a token (cache: user); no public read shows them";
const SESSION = "a session of the user; their public profile does not show sessions";

/**
 * Every write route (the registry's form, `METHOD /path/:param`), in the order they run on one scene: what a write
 * leaves behind is the next one's starting point, and the deletions of the video and the series come last.
 */
export const WRITES: WriteEntry[] = [
  {
    route: "POST /v4/containers",
    ok: 201,
    write: (s) => api("/v4/containers.json", { method: "POST", ...asStaff(s), json: minimal({ titles: { en: "Invalidation new" } }) }),
  },
  {
    route: "PUT /v4/containers/:container_id",
    ok: 200,
    write: (s) => api(`/v4/containers/${s.series.wireId}.json`, { method: "PUT", ...asStaff(s), json: { flags: { on_air: true } } }),
  },
  {
    route: "POST /v4/containers/:container_id/titles",
    ok: 201,
    write: (s) => api(`/v4/containers/${s.series.wireId}/titles.json`, { method: "POST", ...asStaff(s), json: text("title") }),
  },
  {
    route: "DELETE /v4/containers/:container_id/titles/:language_code",
    ok: 204,
    write: (s) => api(`/v4/containers/${s.series.wireId}/titles/ko.json`, { method: "DELETE", ...asStaff(s) }),
  },
  {
    route: "POST /v4/containers/:container_id/descriptions",
    ok: 201,
    write: (s) => api(`/v4/containers/${s.series.wireId}/descriptions.json`, { method: "POST", ...asStaff(s), json: text("description") }),
  },
  {
    route: "DELETE /v4/containers/:container_id/descriptions/:language_code",
    ok: 204,
    write: (s) => api(`/v4/containers/${s.series.wireId}/descriptions/ko.json`, { method: "DELETE", ...asStaff(s) }),
  },
  {
    route: "POST /v4/containers/:container_id/videos",
    ok: 201,
    write: (s) =>
      api(`/v4/containers/${s.series.wireId}/videos.json`, {
        method: "POST",
        ...asStaff(s),
        json: { type: "episode", number: 3, titles: { en: "Episode 3" } },
      }),
  },
  {
    route: "PUT /v4/videos/:video_id",
    ok: 200,
    write: (s) => api(`/v4/videos/${s.first.wireId}.json`, { method: "PUT", ...asStaff(s), json: { number: 7 } }),
  },
  {
    route: "POST /v4/videos/:video_id/titles",
    ok: 201,
    write: (s) => api(`/v4/videos/${s.first.wireId}/titles.json`, { method: "POST", ...asStaff(s), json: text("title") }),
  },
  {
    route: "DELETE /v4/videos/:video_id/titles/:language_code",
    ok: 204,
    write: (s) => api(`/v4/videos/${s.first.wireId}/titles/ko.json`, { method: "DELETE", ...asStaff(s) }),
  },
  {
    route: "POST /v4/videos/:video_id/descriptions",
    ok: 201,
    write: (s) => api(`/v4/videos/${s.first.wireId}/descriptions.json`, { method: "POST", ...asStaff(s), json: text("description") }),
  },
  {
    route: "DELETE /v4/videos/:video_id/descriptions/:language_code",
    ok: 204,
    write: (s) => api(`/v4/videos/${s.first.wireId}/descriptions/ko.json`, { method: "DELETE", ...asStaff(s) }),
  },
  {
    route: "POST /v4/lists",
    showsNothing: "an empty list no listing shows until a PUT fills it",
    ok: 201,
    write: (s) => api("/v4/lists.json", { method: "POST", ...asStaff(s), json: { titles: { en: "Invalidation list 2" } } }),
  },
  {
    route: "PUT /v4/lists/:list_id",
    ok: 202,
    write: (s) => api(`/v4/lists/${s.list}.json`, { method: "PUT", ...asStaff(s), json: { videos: [s.second.wireId, s.series.wireId] } }),
  },
  {
    route: "POST /v4/jobs/:job_id/retry",
    ok: 202,
    // A list edit that failed (as after an outage): its retry writes the list.
    prepare: async (s) => {
      const job = await insertJob(db(), {
        type: "list-edit",
        params: { listId: Number.parseInt(s.list, 10), ids: [s.first.wireId] },
        createdBy: s.staff.user.id,
      });
      await db().update(jobs).set({ status: "failed", error: "an outage", attempts: 6 }).where(eq(jobs.id, job.id));
      s.state.failedJob = `${job.id}j`;
    },
    write: (s) => api(`/v4/jobs/${s.state.failedJob}/retry.json`, { method: "POST", ...asStaff(s) }),
  },
  {
    route: "POST /v4/videos/:video_id/subtitles/import_srt",
    ok: 202,
    write: (s) =>
      api(`/v4/videos/${s.first.wireId}/subtitles/import_srt.json`, {
        method: "POST",
        ...asManager(s),
        json: { language: "fr", content: "1\n00:00:00,000 --> 00:00:00,900\nBonjour\n" },
      }),
  },
  {
    route: "PUT /v4/videos/:video_id/subtitle_tracks/:language/cues/:start_ms",
    ok: 200,
    write: (s) => api(`${track(s)}/ko/cues/1000.json`, { method: "PUT", ...asManager(s), json: { text: "Edited" } }),
  },
  {
    route: "POST /v4/videos/:video_id/subtitle_tracks/:language/versions/:number/restore",
    ok: 201,
    write: (s) => api(`${track(s)}/ko/versions/1/restore.json`, { method: "POST", ...asManager(s) }),
  },
  {
    route: "POST /v4/captions",
    showsNothing: "a suggestion, public only once applied",
    ok: 201,
    write: async (s) => {
      const res = await api("/v4/captions.json", {
        method: "POST",
        token: s.commenter.token,
        app: s.partner,
        json: { origin_subtitle_id: s.original, language: "fr", content: "Bonjour à tous" },
      });
      if (res.ok) s.state.suggestion = String(await idOf(res));
      return res;
    },
  },
  {
    route: "POST /v4/captions/:suggestion_id/apply",
    ok: 200,
    write: (s) => api(`/v4/captions/${s.state.suggestion}/apply.json`, { method: "POST", ...asManager(s) }),
  },
  ...(["translations", "tranlslations"] as const).flatMap((prefix, i): EffectfulWrite[] => [
    ...(["like", "dislike"] as const).map((kind) => ({
      route: `POST /v4/${prefix}/:subtitle_id/${kind}`,
      showsNothing: "a vote: no public read shows votes",
      ok: 200,
      write: (s: WriteScene) =>
        api(`/v4/${prefix}/${s.translation}/${kind}.json`, { method: "POST", token: (i ? s.reporter : s.commenter).token, app: s.partner }),
    })),
    {
      route: `POST /v4/${prefix}/:subtitle_id/report`,
      showsNothing: "a report, read by the container's managers with a token only",
      ok: 201,
      write: (s: WriteScene) =>
        api(`/v4/${prefix}/${s.original}/report.json`, {
          method: "POST",
          token: (i ? s.reporter : s.commenter).token,
          app: s.partner,
          json: { reason: "typo" },
        }),
    },
  ]),
  {
    route: "POST /v4/subtitle_reports/:report_id/resolve",
    ok: 200,
    prepare: async (s) => {
      const res = await api(`/v4/containers/${s.series.wireId}/subtitle_reports.json`, asManager(s));
      s.state.report = ((await res.json()) as { response: Array<{ id: string }> }).response[0].id;
    },
    write: (s) =>
      api(`/v4/subtitle_reports/${s.state.report}/resolve.json`, { method: "POST", ...asManager(s), json: { action: "restore" } }),
  },
  {
    route: "DELETE /v4/videos/:video_id/subtitle_tracks/:file",
    ok: 200,
    write: (s) => api(`${track(s)}/en.json`, { method: "DELETE", ...asManager(s) }),
  },
  {
    route: "POST /v4/videos/:video_id/timed_comments/:language_or_id",
    ok: 201,
    write: async (s) => {
      const res = await api(`/v4/videos/${s.first.wireId}/timed_comments/en.json`, {
        method: "POST",
        token: s.commenter.token,
        json: { time: 1000, comment: "nice" },
      });
      if (res.ok) s.state.comment = String(await idOf(res));
      return res;
    },
  },
  {
    route: "DELETE /v4/videos/:video_id/timed_comments/:language_or_id",
    ok: 204,
    write: (s) =>
      api(`/v4/videos/${s.first.wireId}/timed_comments/${s.state.comment}.json`, { method: "DELETE", token: s.commenter.token }),
  },
  {
    route: "POST /v4/videos/:video_id/playback_streams",
    showsNothing: STREAMS,
    ok: 201,
    write: async (s) => {
      const res = await api(`/v4/videos/${s.first.wireId}/playback_streams.json`, {
        method: "POST",
        ...asManager(s),
        json: { kind: "dash", manifest: mpd() },
      });
      if (res.ok) s.state.stream = String(await idOf(res));
      return res;
    },
  },
  {
    route: "PUT /v4/videos/:video_id/playback_streams/:playback_stream_id",
    showsNothing: STREAMS,
    ok: 200,
    write: (s) =>
      api(`/v4/videos/${s.first.wireId}/playback_streams/${s.state.stream}.json`, {
        method: "PUT",
        ...asManager(s),
        json: { kind: "hls", manifest_url: "https://cdn.example.com/1/master.m3u8", resolutions: [360, 720], audio_languages: ["ko"] },
      }),
  },
  {
    route: "DELETE /v4/videos/:video_id/playback_streams/:playback_stream_id",
    showsNothing: STREAMS,
    ok: 204,
    write: (s) => api(`/v4/videos/${s.first.wireId}/playback_streams/${s.state.stream}.json`, { method: "DELETE", ...asManager(s) }),
  },
  {
    route: "POST /v5/sessions",
    showsNothing: SESSION,
    ok: 201,
    write: async (s) => {
      const res = await api("/v5/sessions.json", {
        method: "POST",
        json: { username: s.manager.user.username, password: s.manager.password },
      });
      if (res.ok) s.state.session = ((await res.clone().json()) as { token: string }).token;
      return res;
    },
  },
  {
    route: "PUT /v5/sessions/:token",
    showsNothing: SESSION,
    ok: 201,
    // A renewal answers a new token: the one the DELETE below ends.
    write: async (s) => {
      const res = await api(`/v5/sessions/${s.state.session}.json`, { method: "PUT" });
      if (res.ok) s.state.session = ((await res.clone().json()) as { token: string }).token;
      return res;
    },
  },
  {
    route: "DELETE /v5/sessions/:token",
    showsNothing: SESSION,
    ok: 204,
    write: (s) => api(`/v5/sessions/${s.state.session}.json`, { method: "DELETE" }),
  },
  {
    route: "POST /v4/translation_memory/lookup",
    showsNothing: "a lookup reads the translation memory and writes nothing",
    ok: 200,
    write: (s) =>
      api("/v4/translation_memory/lookup.json", {
        method: "POST",
        ...asStaff(s),
        json: { source_language: "ko", target_language: "en", texts: ["사랑해요"], container_id: s.series.wireId },
      }),
  },
  {
    route: "POST /v4/containers/:container_id/glossary.csv",
    ok: 200,
    write: (s) =>
      api(glossary(s, ".csv"), {
        method: "POST",
        ...asStaff(s),
        query: { mode: "merge" },
        headers: { "content-type": "text/csv" },
        body: "term,language,status,note,case_sensitive,en\r\n리정혁,ko,preferred,,false,Ri Jeong-hyeok\r\n",
      }),
  },
  {
    route: "PATCH /v4/containers/:container_id/glossary/:term_id",
    ok: 200,
    write: async (s) => api(glossary(s, `/${await firstTerm(s)}.json`), { method: "PATCH", ...asStaff(s), json: { note: "edited" } }),
  },
  {
    route: "DELETE /v4/containers/:container_id/glossary/:term_id",
    ok: 204,
    write: async (s) => api(glossary(s, `/${await firstTerm(s)}.json`), { method: "DELETE", ...asStaff(s) }),
  },
  {
    route: "DELETE /v4/videos/:video_id",
    ok: 204,
    write: (s) => api(`/v4/videos/${s.second.wireId}.json`, { method: "DELETE", ...asStaff(s) }),
  },
  {
    route: "DELETE /v4/containers/:container_id",
    ok: 204,
    write: (s) => api(`/v4/containers/${s.series.wireId}.json`, { method: "DELETE", ...asStaff(s) }),
  },
  ...UNSENT,
];

// Playback streams: every normal video in a normal container gets a DASH stream, every third of them an HLS stream
// too. The manifests are kept by the service in R2 (content-addressed: `playback-manifests/<sha256>.<mpd|m3u8>`,
// docs/api.md, "Playback streams"); seedLocal (scripts/lib.mjs) puts them there, the rows point at them by key.
//
// Manifests are templates, not one per video: a DASH manifest depends on the audio language (the container's origin
// language), the rendition ladder (HD or not) and a duration bucket, an HLS master playlist on the first two only, so
// the ~670 streams of ~500 videos share under a hundred files (the language alone makes eight or more). The MPD
// states its bucket's upper bound as the presentation's duration (a demo video of 41 minutes plays a one-hour
// manifest): the segments are never fetched, and exact durations would make one R2 object per video.

import { createHash } from "node:crypto";
import { ADMIN } from "./users.mjs";

export const MANIFEST_PREFIX = "playback-manifests/";

/** Duration buckets in seconds (upper bounds); the longest demo video is a film of about 2 h 19 min. */
const BUCKETS = [300, 600, 1800, 3600, 5400, 9000];

/** 16:9 renditions: H.264 High profile at level 3.1 up to 720p, level 4.0 for 1080p. */
const RENDITIONS = {
  360: { width: 640, bandwidth: 800_000, codecs: "avc1.64001f" },
  480: { width: 854, bandwidth: 1_400_000, codecs: "avc1.64001f" },
  720: { width: 1280, bandwidth: 2_800_000, codecs: "avc1.64001f" },
  1080: { width: 1920, bandwidth: 5_000_000, codecs: "avc1.640028" },
};
const AUDIO = { bandwidth: 128_000, codecs: "mp4a.40.2", rate: 48_000 };
const LADDERS = { hd: [360, 720, 1080], sd: [360, 480] };
const LANGUAGE_NAMES = {
  de: "Deutsch",
  en: "English",
  es: "Español",
  fr: "Français",
  hi: "हिन्दी",
  ja: "日本語",
  ko: "한국어",
  th: "ไทย",
  zh: "中文",
};

/** ISO 8601 duration (xs:duration) of whole seconds: PT1H30M, PT5M, PT45S. */
function isoDuration(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor(seconds / 60) % 60;
  const s = seconds % 60;
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}${s || !(h || m) ? `${s}S` : ""}`;
}

/**
 * A static on-demand MPD (ISO/IEC 23009-1, profile isoff-on-demand): one video AdaptationSet with the ladder's
 * Representations and one audio AdaptationSet in `lang`, each Representation a single indexed file addressed by a
 * BaseURL relative to the manifest (the on-demand profile's SegmentBase form). Byte ranges are the usual shape of
 * an init segment and its index; nothing fetches them.
 */
export function dashManifest({ duration, heights, lang }) {
  const video = heights.map((h) => {
    const r = RENDITIONS[h];
    return [
      `      <Representation id="video-${h}p" bandwidth="${r.bandwidth}" codecs="${r.codecs}" width="${r.width}" height="${h}" frameRate="25" sar="1:1">`,
      `        <BaseURL>video/${h}p.mp4</BaseURL>`,
      `        <SegmentBase indexRange="862-${1333 + h}" timescale="12800">`,
      `          <Initialization range="0-861"/>`,
      `        </SegmentBase>`,
      `      </Representation>`,
    ];
  });
  const top = RENDITIONS[heights.at(-1)];
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="${isoDuration(duration)}" minBufferTime="PT2S">`,
    `  <Period id="1" start="PT0S">`,
    `    <AdaptationSet id="1" contentType="video" mimeType="video/mp4" par="16:9" maxWidth="${top.width}" maxHeight="${heights.at(-1)}" subsegmentAlignment="true" subsegmentStartsWithSAP="1">`,
    ...video.flat(),
    `    </AdaptationSet>`,
    `    <AdaptationSet id="2" contentType="audio" mimeType="audio/mp4" lang="${lang}" subsegmentAlignment="true" subsegmentStartsWithSAP="1">`,
    `      <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>`,
    `      <Representation id="audio-${lang}" bandwidth="${AUDIO.bandwidth}" codecs="${AUDIO.codecs}" audioSamplingRate="${AUDIO.rate}">`,
    `        <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>`,
    `        <BaseURL>audio/${lang}.mp4</BaseURL>`,
    `        <SegmentBase indexRange="650-1101" timescale="48000">`,
    `          <Initialization range="0-649"/>`,
    `        </SegmentBase>`,
    `      </Representation>`,
    `    </AdaptationSet>`,
    `  </Period>`,
    `</MPD>`,
    ``,
  ].join("\n");
}

/** An HLS master playlist (RFC 8216): one audio rendition in `lang`, one variant per height, URIs relative. */
export function hlsManifest({ heights, lang }) {
  const variants = heights.flatMap((h) => {
    const r = RENDITIONS[h];
    return [
      `#EXT-X-STREAM-INF:BANDWIDTH=${r.bandwidth + AUDIO.bandwidth},RESOLUTION=${r.width}x${h},FRAME-RATE=25.000,CODECS="${r.codecs},${AUDIO.codecs}",AUDIO="audio"`,
      `video/${h}p/index.m3u8`,
    ];
  });
  return [
    "#EXTM3U",
    "#EXT-X-VERSION:4",
    "#EXT-X-INDEPENDENT-SEGMENTS",
    `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",LANGUAGE="${lang}",NAME="${LANGUAGE_NAMES[lang] ?? lang}",DEFAULT=YES,AUTOSELECT=YES,URI="audio/${lang}/index.m3u8"`,
    ...variants,
    "",
  ].join("\n");
}

const sha256 = (text) => createHash("sha256").update(text, "utf8").digest("hex");

/**
 * The stream rows and the distinct manifests they point at: `{ rows, manifests }`, manifests as
 * `{ key, text, contentType }`. Ids run in video order, a video's DASH stream before its HLS one.
 */
export function defineStreams(containers, videos) {
  const manifests = new Map();
  const keep = (text, ext, contentType) => {
    const key = `${MANIFEST_PREFIX}${sha256(text)}.${ext}`;
    if (!manifests.has(key)) manifests.set(key, { key, text, contentType });
    return key;
  };
  const rows = [];
  for (const v of videos) {
    const c = containers[v.container_id - 1];
    if (v.state !== "normal" || c.state !== "normal") continue;
    const heights = v.hd ? LADDERS.hd : LADDERS.sd;
    const lang = c.origin_language;
    const duration = BUCKETS.find((b) => v.duration <= b) ?? Math.ceil(v.duration / 60) * 60;
    const row = (kind, manifest_key) => ({
      id: rows.length + 1,
      video_id: v.id,
      kind,
      manifest_url: null,
      manifest_key,
      resolutions: JSON.stringify(heights),
      audio_languages: JSON.stringify([lang]),
      drm: null,
      created_by: ADMIN,
      created_at: v.updated_at,
      updated_at: v.updated_at,
    });
    rows.push(row("dash", keep(dashManifest({ duration, heights, lang }), "mpd", "application/dash+xml")));
    if (v.id % 3 === 0) rows.push(row("hls", keep(hlsManifest({ heights, lang }), "m3u8", "application/vnd.apple.mpegurl")));
  }
  return { rows, manifests: [...manifests.values()] };
}

export const STREAM_COLUMNS = [
  "id",
  "video_id",
  "kind",
  "manifest_url",
  "manifest_key",
  "resolutions",
  "audio_languages",
  "drm",
  "created_by",
  "created_at",
  "updated_at",
];

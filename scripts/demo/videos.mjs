// Videos: the plan per container type, their timeline and states, titles and descriptions; also fills in the
// containers' dates from their videos.

import { CLIPS, EPISODE, EPISODE_BLURBS, LIVE_CLIP, MV_TITLE, PROMO, SONGS, TRAILER, editionDate, joinTitle } from "./phrases.mjs";
import { G, MANAGED, TITLE_LANGUAGES } from "./catalogue-data.mjs";
import { containerTitleIn } from "./containers.mjs";
import { DAY, HOUR, NOW, capNow, isoDate, utcMidnight } from "./core.mjs";

export const MAIN_TYPE = { series: "episode", film: "movie", news: "news_clip", artist: "music_video" };

/** Duration in seconds by video type (and container flavour). */
function durationFor(r, c, type) {
  switch (type) {
    case "episode":
      if (c.def.genres.includes(G.anime)) return r.int(1380, 1500);
      if (c.def.genres.includes(G.variety)) return r.int(4800, 5700);
      if (c.hosted === 0) return r.int(300, 900);
      return r.int(2400, 4200);
    case "movie":
      return r.int(5100, 8400);
    case "trailer":
      return r.int(60, 180);
    case "news_clip":
      return r.int(90, 480);
    case "music_video":
      return r.int(180, 290);
    default:
      return r.int(60, 600);
  }
}

/**
 * The list of videos of a container with their creation times. Numbers count within a type (episode 1..k,
 * trailer 1.., clip 1..). Returns plain records; ids are assigned by the caller in order.
 */
function planVideos(r, c) {
  const plan = [];
  const add = (type, number, createdAt, extra = {}) =>
    plan.push({ type, number, created_at: capNow(createdAt), state: "normal", ...extra });
  const between = (a, b) => a + Math.floor(r.next() * Math.max(1, b - a));
  const evening = () => r.int(18, 22) * HOUR; // broadcasts go out in the evening, UTC-ish

  if (c.upcoming) {
    const release = NOW + r.int(45, 330) * DAY;
    c.release_ts = release;
    add("trailer", 1, NOW - r.int(3, 40) * DAY);
    if (r.chance(0.5)) add("clip", 1, NOW - r.int(41, 90) * DAY, { clip: CLIPS[4] });
    return plan;
  }

  if (c.type === "series") {
    const k = r.int(6, 16);
    // On-air series released their latest episode within the last week; finished ones ended long ago.
    const first = c.on_air ? NOW - (k - 1) * 7 * DAY - r.int(1, 6) * DAY : between(utcMidnight(2015, 1, 1), NOW - (k * 7 + 90) * DAY);
    const firstAt = Math.floor(first / DAY) * DAY + evening();
    c.release_ts = firstAt;
    for (let n = 1; n <= k; n++) add("episode", n, firstAt + (n - 1) * 7 * DAY);
    if (r.chance(0.5)) add("trailer", 1, firstAt - r.int(7, 30) * DAY);
    if (r.chance(0.3)) add("clip", 1, between(firstAt, firstAt + k * 7 * DAY), { clip: r.pick(CLIPS.slice(0, 4)) });
  } else if (c.type === "film") {
    const release = Math.floor(between(utcMidnight(2010, 1, 1), NOW - 60 * DAY) / DAY) * DAY + evening();
    c.release_ts = release;
    add("movie", 1, release);
    if (r.chance(0.6)) add("trailer", 1, release - r.int(20, 60) * DAY);
    if (r.chance(0.2)) add("clip", 1, release + r.int(1, 30) * DAY, { clip: r.pick(CLIPS.slice(0, 4)) });
  } else if (c.type === "news") {
    c.release_ts = Math.floor(between(utcMidnight(2014, 1, 1), utcMidnight(2022, 12, 31)) / DAY) * DAY;
    const count = r.int(6, 12);
    // Daily editions, most recent ones in the last four months.
    const times = Array.from({ length: count }, () => NOW - r.int(1, 120) * DAY + r.int(5, 9) * HOUR).sort((a, b) => a - b);
    times.forEach((t, i) => add("news_clip", i + 1, t));
  } else {
    const debut = Math.floor(between(utcMidnight(2012, 1, 1), utcMidnight(2023, 6, 1)) / DAY) * DAY;
    c.release_ts = debut;
    const songs = r.shuffle(SONGS).slice(0, r.int(4, 9));
    const times = songs.map(() => between(debut, NOW - 5 * DAY)).sort((a, b) => a - b);
    songs.forEach((song, i) => add("music_video", i + 1, times[i], { song }));
    if (r.chance(0.4)) add("clip", 1, between(debut, NOW - DAY), { clip: LIVE_CLIP });
  }

  markStates(r, c, plan);
  return plan;
}

/**
 * Video states. Managed containers always get one pending upload (the next episode/edition/MV, awaiting
 * review) and one blocked clip; elsewhere a few containers have a pending latest video or a blocked one.
 */
function markStates(r, c, plan) {
  const main = MAIN_TYPE[c.type];
  const last = plan.filter((v) => v.type === main).at(-1);
  if (MANAGED.includes(c.id)) {
    const nextNumber = plan.filter((v) => v.type === (main === "movie" ? "clip" : main)).length + 1;
    const pendingType = main === "movie" ? "clip" : main;
    plan.push({
      type: pendingType,
      number: nextNumber,
      created_at: capNow(Math.max(last.created_at + 2 * DAY, NOW - 3 * DAY)),
      state: "pending",
      clip: pendingType === "clip" ? CLIPS[1] : undefined,
      song: pendingType === "music_video" ? SONGS.find((s) => !plan.some((v) => v.song === s)) : undefined,
    });
    const clipNumber = plan.filter((v) => v.type === "clip").length + 1;
    plan.push({
      type: "clip",
      number: clipNumber,
      created_at: capNow(last.created_at + r.int(1, 20) * DAY),
      state: "blocked",
      clip: CLIPS[2],
    });
    return;
  }
  if (r.chance(0.15) && plan.length > 2) last.state = "pending";
  if (r.chance(0.12) && plan.length > 3) plan[r.int(1, plan.length - 2)].state = "blocked";
}

/** Titles for one video: English, the origin language, and a random share of the other languages. */
function videoTitles(r, c, v, share) {
  const langs = new Set(["en", c.origin_language]);
  for (const lang of TITLE_LANGUAGES) if (r.chance(share)) langs.add(lang);
  const out = {};
  for (const lang of langs) {
    const head = containerTitleIn(c, lang);
    switch (v.type) {
      case "episode":
        out[lang] = EPISODE[lang](v.number);
        break;
      case "movie":
        out[lang] = head;
        break;
      case "trailer":
        out[lang] = joinTitle(lang, head, TRAILER[lang]);
        break;
      case "clip":
        out[lang] = joinTitle(lang, head, v.clip[lang]);
        break;
      case "news_clip":
        out[lang] = joinTitle(lang, head, editionDate(v.created_at, lang));
        break;
      case "music_video":
        out[lang] = MV_TITLE[lang](v.song[lang] ?? v.song.en);
        break;
    }
  }
  return out;
}

/**
 * Builds the video records of every container (ids 1..N in container order) and fills in the container's
 * dates from its videos: release_date, air_time, newest_video_at, created_at and updated_at.
 */
export function defineVideos(r, containers) {
  const videos = [];
  for (const c of containers) {
    const plan = planVideos(r, c);
    // Popular containers get their titles translated more often.
    const share = c.views > 1_000_000 ? 0.7 : c.views > 50_000 ? 0.45 : 0.2;
    for (const p of plan) {
      const id = videos.length + 1;
      const v = {
        id,
        container_id: c.id,
        type: p.type,
        number: p.number,
        duration: durationFor(r, c, p.type),
        state: p.state,
        origin_language: c.origin_language,
        hd: c.hosted && r.chance(p.type === "movie" ? 0.9 : 0.65) ? 1 : 0,
        poster_url: `https://images.example.com/videos/${id}.jpg`,
        views: Math.floor((c.views / plan.length) * (0.3 + r.next() * 1.4) * (p.state === "normal" ? 1 : 0.02)),
        created_at: p.created_at,
        updated_at: p.state === "pending" ? p.created_at : capNow(p.created_at + r.int(0, 20) * DAY),
        clip: p.clip,
        song: p.song,
      };
      v.titles = videoTitles(r, c, v, share);
      videos.push(v);
    }
    fillContainerDates(
      r,
      c,
      videos.filter((v) => v.container_id === c.id),
    );
  }
  return videos;
}

function fillContainerDates(r, c, own) {
  const normal = own.filter((v) => v.state === "normal");
  const firstVideo = Math.min(...own.map((v) => v.created_at));
  c.release_date = isoDate(c.release_ts);
  c.newest_video_at = normal.length ? Math.max(...normal.map((v) => v.created_at)) : null;
  if (c.type === "artist") c.air_time = null;
  else if (c.on_air)
    c.air_time = c.newest_video_at + 7 * DAY; // the next episode's slot
  else if (c.type === "news") c.air_time = c.newest_video_at;
  else c.air_time = c.release_ts;
  c.created_at = Math.min(firstVideo, c.release_ts) - r.int(3, 45) * DAY;
  c.updated_at = Math.max(c.created_at, ...own.map((v) => v.updated_at));
}

export function videoTitleRows(videos) {
  return videos.flatMap((v) =>
    Object.entries(v.titles).map(([language, text]) => ({
      resource_kind: "v",
      resource_id: v.id,
      language,
      text,
      updated_at: v.updated_at,
    })),
  );
}

/** A fifth of the videos carry a short English description; movies reuse the film's logline. */
export function videoDescriptionRows(r, containers, videos) {
  const rows = [];
  for (const v of videos) {
    const c = containers[v.container_id - 1];
    let text = null;
    if (v.type === "movie" && c.def.log) text = c.def.log;
    else if (v.type === "episode" && r.chance(0.25)) text = r.pick(EPISODE_BLURBS);
    else if (v.type === "trailer" && r.chance(0.4)) text = `The official trailer for ${c.def.en}.`;
    else if (v.type === "music_video" && r.chance(0.3)) text = `Official music video for "${v.song.en}" by ${c.def.en}.`;
    if (text) rows.push({ resource_kind: "v", resource_id: v.id, language: "en", text, updated_at: v.updated_at });
    if (v.type === "episode" && c.origin_language !== "en" && r.chance(0.1)) {
      rows.push({
        resource_kind: "v",
        resource_id: v.id,
        language: c.origin_language,
        text: PROMO[c.origin_language](`${containerTitleIn(c, c.origin_language)} ${EPISODE[c.origin_language](v.number)}`),
        updated_at: v.updated_at,
      });
    }
  }
  return rows;
}

export function strip(videos) {
  return videos.map(({ titles, clip, song, ...row }) => row);
}

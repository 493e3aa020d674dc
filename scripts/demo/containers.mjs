// Containers: records with generated numbers, and their genre, title, description and licence rows.

import { CATALOGUE, COUNTRY_LANGUAGE, PLATFORMS, REGIONS, TITLE_LANGUAGES } from "./catalogue-data.mjs";
import { PROMO } from "./phrases.mjs";

/** Expands CATALOGUE into container records with generated numbers (views, dates come from the videos). */
export function defineContainers(r) {
  return CATALOGUE.map((def, i) => {
    const id = i + 1;
    const fan = def.hosted === 0;
    const upcoming = def.upcoming ?? 0;
    const onAir = def.onAir ?? 0;
    // Popularity on a log scale: big hits in the tens of millions, fan channels in the thousands.
    const views = upcoming
      ? Math.floor(10 ** (2 + r.next() * 2.5))
      : fan
        ? Math.floor(10 ** (3 + r.next() * 2))
        : Math.floor(10 ** (4 + r.next() * 3.6));
    const recentShare = onAir ? 0.12 + r.next() * 0.2 : upcoming ? 0.5 + r.next() * 0.4 : 0.002 + r.next() * 0.05;
    return {
      id,
      def,
      type: def.type,
      origin_country: def.country,
      origin_language: COUNTRY_LANGUAGE[def.country],
      hosted: def.hosted ?? 1,
      licensed: def.licensed ?? 1,
      adult: def.adult ?? 0,
      on_air: onAir,
      upcoming,
      state: "normal",
      poster_url: `https://images.example.com/containers/${id}.jpg`,
      sort_title: def.en.toLowerCase(),
      views,
      views_recent: Math.floor(views * recentShare),
      trending: onAir ? r.int(60, 99) : upcoming ? r.int(20, 70) : r.int(0, 45),
      average_rating: upcoming ? 0 : Math.round((5.8 + r.next() * 4.1) * 10) / 10,
      rating_count: upcoming ? 0 : 1 + Math.floor(views * (0.0005 + r.next() * 0.008)),
      // Filled in by the video pass: release_date, air_time, newest_video_at, created_at, updated_at.
      titles: { en: def.en, ...(def.t ?? {}) },
    };
  });
}

export function containerTitleIn(c, lang) {
  return c.titles[lang] ?? c.titles.en;
}

export function containerGenreRows(containers) {
  return containers.flatMap((c) => c.def.genres.map((genre_id) => ({ container_id: c.id, genre_id })));
}

export function containerTitleRows(containers) {
  return containers.flatMap((c) =>
    Object.entries(c.titles).map(([language, text]) => ({
      resource_kind: "c",
      resource_id: c.id,
      language,
      text,
      updated_at: c.updated_at,
    })),
  );
}

/** English loglines where written, plus promotional blurbs in the origin language and a few others. */
export function containerDescriptionRows(r, containers) {
  const rows = [];
  for (const c of containers) {
    const add = (language, text) => rows.push({ resource_kind: "c", resource_id: c.id, language, text, updated_at: c.updated_at });
    if (c.def.log) add("en", c.def.log);
    const origin = c.origin_language;
    if (origin !== "en" && (c.titles[origin] || r.chance(0.3))) add(origin, PROMO[origin](containerTitleIn(c, origin)));
    for (const lang of TITLE_LANGUAGES) {
      if (lang !== origin && c.titles[lang] && r.chance(0.25)) add(lang, PROMO[lang](c.titles[lang]));
    }
  }
  return rows;
}

/**
 * Released, licensed containers: worldwide or a handful of regions, usually on every platform. Upcoming ones
 * are pre-licensed for two or three regions on one or two platforms. Unlicensed containers get none.
 */
export function licenseRows(r, containers) {
  const rows = [];
  for (const c of containers) {
    if (!c.licensed) continue;
    const home = REGIONS.includes(c.origin_country) ? [c.origin_country] : [];
    let regions;
    let platformsFor;
    if (c.upcoming) {
      regions = [...new Set([...home, ...r.shuffle(REGIONS).slice(0, r.int(1, 2))])];
      const platforms = r.shuffle(PLATFORMS).slice(0, r.int(1, 2));
      platformsFor = () => platforms;
    } else {
      regions = r.chance(0.35) ? REGIONS : [...new Set([...home, ...r.shuffle(REGIONS).slice(0, r.int(2, 5))])];
      platformsFor = () => (r.chance(0.75) ? PLATFORMS : r.shuffle(PLATFORMS).slice(0, r.int(1, 2)));
    }
    for (const region of REGIONS.filter((x) => regions.includes(x))) {
      const platforms = platformsFor(); // once per region: some regions only stream on some platforms
      for (const platform of PLATFORMS.filter((p) => platforms.includes(p))) {
        rows.push({ container_id: c.id, region, platform });
      }
    }
  }
  return rows;
}

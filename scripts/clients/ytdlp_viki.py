"""Drives yt-dlp's own Viki extractor (the installed package, unchanged) against a local server.

Run by scripts/test-clients.mjs with Debian's /usr/bin/python3 (the interpreter that sees the `yt-dlp` package):
    python3 ytdlp_viki.py --base http://127.0.0.1:8796 --series 11c --video 135v [--demo-streams streams.json]

The extractor hard-codes its API origin, application id and secret; we point those three class attributes at the
local server and the demo official application (configuration only: the `yt-dlp` command itself has no option for
them). Everything else (login, signing, the episode walk, the playback streams, the MPD download and its formats,
the subtitle files, the JSON-to-info-dict mapping) is yt-dlp's code, nothing stubbed; the subtitle run takes its
options from yt-dlp's own command-line parser. Expected values are read from the API directly, so the checks hold
for whatever the demo data says. Prints one line per check and `yt-dlp viki: N passed, N failed`.
"""
import argparse
import json
import os
import sys
import tempfile
import traceback
from collections import Counter

import yt_dlp
from yt_dlp.extractor.viki import VikiBaseIE
from yt_dlp.utils import parse_iso8601

from viki_demo_streams import check_demo_streams
from viki_support import (OFFICIAL_APP, OFFICIAL_SECRET, RecordingYDL, api_get, cues, fetch, mpd_representations,
                          signed_get, signed_json)

STOCK_APP, STOCK_SECRET = VikiBaseIE._APP, VikiBaseIE._APP_SECRET  # yt-dlp's own (100005a), unknown here
TELLING_HEADERS = ("x-app-ignored", "x-token-ignored", "x-ignored-fields")
VIDEO_TYPES = ("episodes", "movies", "clips", "trailers")  # the lists VikiChannelIE walks, in its order


def point_at(base, app, secret):
    VikiBaseIE._API_URL_TEMPLATE = base + "%s"
    VikiBaseIE._APP = app
    VikiBaseIE._APP_SECRET = secret


def cli_options(*argv):
    """The YoutubeDL parameters the yt-dlp command line builds from argv (its own parser), without a URL."""
    return yt_dlp.parse_options([*argv, "--", "https://www.viki.com/videos/0v"]).ydl_opts


def listed_ids(base, series):
    """What the API lists for each of the extractor's video types, walked page by page."""
    ids = []
    for video_type in VIDEO_TYPES:
        page = 1
        while True:
            res = api_get(base, f"/v4/containers/{series}/{video_type}.json?app={OFFICIAL_APP}&only_ids=true"
                                f"&sort=number&direction=asc&per_page=10&page={page}")
            ids += res["response"]
            if not res.get("more"):
                break
            page += 1
    return ids


def extract(ydl, url):
    """yt-dlp's answer for url, or the error it raised (checked by the steps that need the answer)."""
    try:
        return ydl.extract_info(url, download=False), None
    except yt_dlp.utils.DownloadError as err:
        return {}, err


def en_or_first(values):
    values = values or {}
    return values["en"] if "en" in values else next(iter(filter(None, values.values())), None)


def eq(what, got, want):
    if got != want:
        raise AssertionError(f"{what}: yt-dlp has {got!r}, the API says {want!r}")


def no_refusals(ydl):
    bad = ydl.refused()
    if bad:
        raise AssertionError("refused: " + "; ".join(f"{r['method']} {r['url']} -> {r.get('status') or r.get('error')}"
                                                     for r in bad))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--series", required=True)
    ap.add_argument("--video", required=True)
    ap.add_argument("--username", default="alice")
    ap.add_argument("--password", default="alice-password")
    ap.add_argument("--demo-streams", help="JSON from scripts/test-clients.mjs: the seeded streams to check")
    args = ap.parse_args()
    base = args.base.rstrip("/")
    login = {"username": args.username, "password": args.password}
    video_url = f"https://www.viki.com/videos/{args.video}-x"
    results = []

    def check(name, fn):
        try:
            fn()
            results.append(True)
            print(f"ok - {name}", flush=True)
        except Exception as err:  # noqa: BLE001 - every failure is reported, then counted
            results.append(False)
            known = (AssertionError, yt_dlp.utils.DownloadError, yt_dlp.utils.ExtractorError)
            # yt-dlp appends a plea to report upstream; our failures are ours, so cut it.
            detail = str(err).split("; please report")[0] if isinstance(err, known) else traceback.format_exc(limit=3)
            print(f"not ok - {name}\n  " + detail.strip().replace("\n", "\n  "), flush=True)

    container = api_get(base, f"/v4/containers/{args.series}.json?app={OFFICIAL_APP}")
    video = api_get(base, f"/v4/videos/{args.video}.json?app={OFFICIAL_APP}")
    expected_ids = listed_ids(base, args.series)
    print(f"# yt-dlp {yt_dlp.version.__version__}; series {args.series} lists {len(expected_ids)} videos; "
          f"video {args.video}", flush=True)

    if args.demo_streams:
        check("demo data: every normal video has a DASH stream; each seeded manifest is served, named by its bytes "
              "and says what its rows say", lambda: check_demo_streams(base, args.demo_streams))

    point_at(base, OFFICIAL_APP, OFFICIAL_SECRET)
    channel_ydl = RecordingYDL({**login, "extract_flat": True})
    channel, channel_error = extract(channel_ydl, f"https://www.viki.com/tv/{args.series}-x")

    def logged_in():
        posts = [r for r in channel_ydl.requests if r["method"] == "POST"]
        if not posts or "/v5/sessions.json" not in posts[0]["url"] or not 200 <= (posts[0]["status"] or 0) < 300:
            raise AssertionError(f"login refused: {[(r['url'], r['status']) for r in posts]}")
        if not channel_ydl.get_info_extractor("VikiChannel")._token:
            raise AssertionError(f"no session token: {channel_ydl.log.warnings}")

    check(f"login as {args.username} (POST /v5/sessions.json, JSON under a form content type)", logged_in)

    def series_entries():
        if channel_error:
            raise channel_error
        token = channel_ydl.get_info_extractor("VikiChannel")._token
        if not any(r["signed"] and f"/v5/containers/{args.series}.json" in r["url"] for r in channel_ydl.requests):
            raise AssertionError("the series was not read with a signed /v5/containers request")
        if not all(f"token={token}" in r["url"] for r in channel_ydl.requests if r["method"] == "GET"):
            raise AssertionError("a read after login did not carry the session token")
        eq("playlist id", channel.get("id"), args.series)
        eq("series title", channel.get("title"), en_or_first(container["titles"]))
        eq("series description", channel.get("description"), en_or_first(container.get("descriptions")))
        eq("listed video ids", [e["id"] for e in channel.get("entries") or []], expected_ids)
        if len(expected_ids) < 2:
            raise AssertionError("the series should list several videos; pick another")
        no_refusals(channel_ydl)

    check(f"series {args.series}: signed /v5 container read and the /v4 episode pages give the listed ids",
          series_entries)

    def video_info(ydl, app):
        info = ydl.extract_info(video_url, download=False)
        eq("id", info.get("id"), args.video)
        eq("title", info.get("title"), video["titles"].get("en")
           or f"{en_or_first(video.get('container', {}).get('titles'))} - Episode {video.get('number')}")
        eq("description", info.get("description"), en_or_first(video.get("descriptions")))
        eq("duration", info.get("duration"), video.get("duration"))
        eq("episode_number", info.get("episode_number"), video.get("number"))
        eq("timestamp", info.get("timestamp"), parse_iso8601(video.get("created_at")))
        eq("subtitle languages", sorted(info.get("subtitles") or {}), sorted(video.get("subtitle_completions") or {}))
        eq("thumbnails", sorted((t["id"], t["url"]) for t in info.get("thumbnails") or []),
           sorted((k, v["url"]) for k, v in (video.get("images") or {}).items() if v.get("url")))
        sub_urls = [s["url"] for subs in (info.get("subtitles") or {}).values() for s in subs]
        if not all(u.startswith(f"{base}/v4/videos/{args.video}/auth_subtitles/") and f"app={app}" in u
                   and "stream_id=None" not in u for u in sub_urls):
            raise AssertionError(f"subtitle urls do not point at this server with a grant: {sub_urls[:2]}")
        if not (info.get("description") and info.get("subtitles") and info.get("thumbnails")):
            raise AssertionError("the chosen video should have a description, subtitles and thumbnails")
        no_refusals(ydl)
        return info

    video_ydl = RecordingYDL(login)
    extracted = {}

    def video_with_login():
        extracted["info"] = video_info(video_ydl, OFFICIAL_APP)
        if not video_ydl.get_info_extractor("Viki")._token:
            raise AssertionError(f"login failed: {video_ydl.log.warnings}")

    check(f"video {args.video}: info dict from GET /v4/videos/{args.video}.json, streams from the signed "
          f"/v5/playback_streams/{args.video}.json", video_with_login)

    def formats_from_manifest():
        info = extracted.get("info")
        if not info:
            raise AssertionError("no info dict (see the check before)")
        streams = video_ydl.sent(f"/v5/playback_streams/{args.video}.json")
        if [(r["signed"], r["status"]) for r in streams] != [(True, 200)]:
            raise AssertionError(f"expected one signed streams read answered 200: {streams}")
        # yt-dlp reads the manifest twice: for a link to another MPD in it (none here), then for the formats.
        fetched = video_ydl.sent("/playback_manifests/")
        eq("manifest downloads", [(r["url"], r["status"]) for r in fetched], [(fetched[0]["url"], 200)] * 2)
        # The driver's own answer (its own grant) names the same manifest as DASH, first.
        first = signed_json(base, f"/v5/playback_streams/{args.video}.json")["main"][0]
        eq("first stream's kind", first["kind"], "dash")
        eq("manifest", fetched[0]["url"].split("?")[0], first["url"].split("?")[0])
        status, _, body = fetch(fetched[0]["url"])
        root, reps = mpd_representations(body)
        eq("manifest root", (status, root.tag), (200, "{urn:mpeg:dash:schema:mpd:2011}MPD"))
        heights = sorted(h for kind, h, _ in reps if kind == "video")
        formats = info.get("formats") or []
        eq("formats (one per Representation)", len(formats), len(reps))
        video_formats = [f for f in formats if f.get("vcodec") not in (None, "none")]
        eq("video format heights", sorted(f["height"] for f in video_formats), heights)
        eq("resolutions of the stream", sorted(first["resolutions"]), heights)
        eq("audio_languages of the stream", first["audio_languages"], [lang for kind, _, lang in reps
                                                                       if kind == "audio"])
        print(f"#   formats: {', '.join(f['format_id'] for f in formats)}", flush=True)

    check(f"video {args.video}: yt-dlp's formats are the DASH manifest's Representations (count and heights)",
          formats_from_manifest)

    subtitle_ydls = []

    def subtitles_written():
        languages = sorted(video.get("subtitle_completions") or {})
        with tempfile.TemporaryDirectory(prefix="ytdlp-viki-") as tmp:
            # `yt-dlp --skip-download --write-subs --sub-langs all -o <tmp>/%(id)s.%(ext)s`, parsed by yt-dlp itself.
            # It writes one format per language, the last offered (vtt); `--sub-format srt` asks for the other.
            for extra in ([], ["--sub-format", "srt"]):
                ydl = RecordingYDL(cli_options("--skip-download", "--write-subs", "--sub-langs", "all",
                                               "-o", os.path.join(tmp, "%(id)s.%(ext)s"), "--username", args.username,
                                               "--password", args.password, *extra))
                subtitle_ydls.append(ydl)
                if ydl.download([video_url]):
                    raise AssertionError(f"yt-dlp {' '.join(extra)} failed: {ydl.log.errors}")
                no_refusals(ydl)
            counts = {}
            eq("files written", sorted(os.listdir(tmp)),
               sorted(f"{args.video}.{lang}.{ext}" for lang in languages for ext in ("srt", "vtt")))
            for name in sorted(os.listdir(tmp)):
                with open(os.path.join(tmp, name), encoding="utf-8") as f:
                    written = cues(f.read())
                lang, ext = name[len(args.video) + 1:].rsplit(".", 1)
                status, _, body = signed_get(base, f"/v4/videos/{args.video}/subtitle_tracks/{lang}.{ext}")
                stored = cues(body.decode("utf-8"))
                if status != 200 or not stored:
                    raise AssertionError(f"the stored {lang}.{ext} answered {status} with {len(stored)} cues")
                eq(f"cues of {name} (start, end, text)", written, stored)
                counts[name] = len(written)
            print("#   written: " + ", ".join(f"{name} ({n} cues)" for name, n in counts.items()), flush=True)
        if not languages:
            raise AssertionError("the chosen video should have subtitles")

    check(f"video {args.video}: --write-subs --sub-langs all writes .srt and .vtt in every language, cue for cue "
          "the stored subtitles (auth_subtitles with the grant)", subtitles_written)

    anonymous_ydl = RecordingYDL({"extract_flat": True})

    def series_anonymous():
        info = anonymous_ydl.extract_info(f"https://www.viki.com/tv/{args.series}-x", download=False)
        eq("listed video ids", [e["id"] for e in info.get("entries") or []], expected_ids)
        if not any("token=None" in r["url"] for r in anonymous_ydl.requests):
            raise AssertionError("expected the extractor to send token=None without a login")
        no_refusals(anonymous_ydl)

    check("series without login: the episode pages are read with token=None", series_anonymous)

    # yt-dlp's own application id is unknown here: unsigned logins and public reads treat it as naming none, but the
    # signed streams read cannot be checked without its secret, so playback stops there.
    point_at(base, STOCK_APP, STOCK_SECRET)
    stock_ydl = RecordingYDL(login)

    def video_stock_app():
        _, err = extract(stock_ydl, video_url)
        streams = stock_ydl.sent("/v5/playback_streams/")
        eq("streams reads (signed, status)", [(r["signed"], r["status"]) for r in streams], [(True, 401)])
        if not err or "Unable to download JSON metadata: HTTP Error 401" not in str(err):
            raise AssertionError(f"yt-dlp should report the refused streams read: {err}")
        before = stock_ydl.requests[:stock_ydl.requests.index(streams[0])]
        eq("login and video read before it (answered 2xx)",
           [(r["method"], 200 <= (r["status"] or 0) < 300) for r in before], [("POST", True), ("GET", True)])
        if not stock_ydl.get_info_extractor("Viki")._token:
            raise AssertionError(f"login with app={STOCK_APP} failed: {stock_ydl.log.warnings}")
        status, _, body = signed_get(base, f"/v5/playback_streams/{args.video}.json",
                                     app=STOCK_APP, secret=STOCK_SECRET)
        error = json.loads(body)
        if status != 401 or "app" not in [d.get("field") for d in error.get("details") or []]:
            raise AssertionError(f"the server should refuse naming app: {status} {error}")
        print(f"#   yt-dlp reports: {str(err).split('; please report')[0]}", flush=True)
        print(f"#   the server said: {error.get('error')}", flush=True)

    check(f"yt-dlp's own app id ({STOCK_APP}): login and the video read answer; the signed streams read is refused "
          "(401 naming app) and yt-dlp stops there", video_stock_app)

    everything = [channel_ydl, video_ydl, *subtitle_ydls, anonymous_ydl, stock_ydl]
    sent = sum(len(y.requests) for y in everything)
    refused = sum(len(y.refused()) for y in everything)
    passed, failed = results.count(True), results.count(False)
    print(f"# {sent} requests sent by yt-dlp, {refused} refused (the stock app's streams read is expected)")
    notes = Counter(f"{k.lower()}: {v}" for y in everything for r in y.requests
                    for k, v in (r.get("headers") or {}).items() if k.lower() in TELLING_HEADERS)
    if notes:
        print("# the server noted: " + ", ".join(f"{n} (x{c})" for n, c in sorted(notes.items())))
    for r in (r for y in everything for r in y.refused()):
        print(f"#   {r['method']} {r['url']} -> {r.get('status') or r.get('error')}")
    print("PASS" if not failed else "FAIL", "- yt-dlp's Viki extractor against", base)
    print(f"yt-dlp viki: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

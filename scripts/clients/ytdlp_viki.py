"""Drives yt-dlp's own Viki extractor (the installed package, unchanged) against a local server.

Run by scripts/test-clients.mjs with Debian's /usr/bin/python3 (the interpreter that sees the `yt-dlp` package):
    python3 ytdlp_viki.py --base http://127.0.0.1:8796 --series 11c --video 135v

The extractor hard-codes its API origin, application id and secret; we point those three class attributes at the
local server and the demo official application (configuration only). Everything else (login, signing, the episode
walk, the JSON-to-info-dict mapping) is yt-dlp's code. Expected values are read from the API directly, so the checks
hold for whatever the demo data says. Prints one line per check and `yt-dlp viki: N passed, N failed`.
"""
import argparse
import json
import sys
import traceback
import urllib.error
import urllib.request
from collections import Counter

import yt_dlp
from yt_dlp.extractor.viki import VikiBaseIE, VikiIE
from yt_dlp.utils import parse_iso8601

OFFICIAL_APP = "100000a"
OFFICIAL_SECRET = "official-dev-secret"
STOCK_APP, STOCK_SECRET = VikiBaseIE._APP, VikiBaseIE._APP_SECRET  # yt-dlp's own (100005a), unknown here
TELLING_HEADERS = ("x-app-ignored", "x-token-ignored", "x-ignored-fields")
VIDEO_TYPES = ("episodes", "movies", "clips", "trailers")  # the lists VikiChannelIE walks, in its order

# Playback streams and MPD manifests are outside this API: it serves no media. Only these two steps are stubbed;
# every other request the extractor makes reaches the server. The stub URL never leaves this process.
STUB_MPD = "stub:playback-streams-are-outside-this-api.mpd"
_real_call_api = VikiIE._call_api
_real_download_webpage = VikiIE._download_webpage
_real_extract_mpd_formats = VikiIE._extract_mpd_formats


def _call_api(self, path, video_id, *args, **kwargs):
    if path.startswith("playback_streams/"):
        return {"main": [{"url": STUB_MPD, "properties": {"track": {"stream_id": None}}}]}
    return _real_call_api(self, path, video_id, *args, **kwargs)


def _download_webpage(self, url_or_request, *args, **kwargs):
    if url_or_request == STUB_MPD:
        return ""
    return _real_download_webpage(self, url_or_request, *args, **kwargs)


def _extract_mpd_formats(self, mpd_url, *args, **kwargs):
    if mpd_url == STUB_MPD:
        return []
    return _real_extract_mpd_formats(self, mpd_url, *args, **kwargs)


VikiIE._call_api = _call_api
VikiIE._download_webpage = _download_webpage
VikiIE._extract_mpd_formats = _extract_mpd_formats


def point_at(base, app, secret):
    VikiBaseIE._API_URL_TEMPLATE = base + "%s"
    VikiBaseIE._APP = app
    VikiBaseIE._APP_SECRET = secret


class Log:
    """yt-dlp's logger hook: keeps warnings and errors (a failed login is only a warning)."""

    def __init__(self):
        self.warnings, self.errors = [], []

    def debug(self, msg):
        pass

    info = debug

    def warning(self, msg):
        self.warnings.append(msg)

    def error(self, msg):
        self.errors.append(msg)


class RecordingYDL(yt_dlp.YoutubeDL):
    """Every HTTP exchange yt-dlp makes goes through urlopen: record method, URL, status and telling headers."""

    def __init__(self, params):
        self.log = Log()
        self.requests = []
        super().__init__({"quiet": True, "logger": self.log, "proxy": "", "cachedir": False,
                          "skip_download": True, "socket_timeout": 30, **params})

    def urlopen(self, req):
        if isinstance(req, str):
            req = yt_dlp.utils.sanitized_Request(req)
        entry = {"method": req.get_method(), "url": req.get_full_url(), "signed": req.get_header("Signature") is not None}
        self.requests.append(entry)
        try:
            res = super().urlopen(req)
        except urllib.error.HTTPError as err:
            entry.update(status=err.code, headers=dict(err.headers or {}))
            raise
        except Exception as err:
            entry.update(status=None, error=str(err))
            raise
        entry.update(status=res.status, headers=dict(res.headers))
        return res

    def refused(self):
        return [r for r in self.requests if r.get("status") is None or r["status"] >= 400]


_direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only, never via a proxy


def api_get(base, path):
    with _direct.open(base + path, timeout=30) as res:
        return json.load(res)


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
    args = ap.parse_args()
    base = args.base.rstrip("/")
    login = {"username": args.username, "password": args.password}
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
        info = ydl.extract_info(f"https://www.viki.com/videos/{args.video}-x", download=False)
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
                   for u in sub_urls):
            raise AssertionError(f"subtitle urls do not point at this server: {sub_urls[:2]}")
        if not (info.get("description") and info.get("subtitles") and info.get("thumbnails")):
            raise AssertionError("the chosen video should have a description, subtitles and thumbnails")
        no_refusals(ydl)
        return info

    video_ydl = RecordingYDL({**login, "ignore_no_formats_error": True})

    def video_with_login():
        video_info(video_ydl, OFFICIAL_APP)
        if not video_ydl.get_info_extractor("Viki")._token:
            raise AssertionError(f"login failed: {video_ydl.log.warnings}")

    check(f"video {args.video}: info dict from GET /v4/videos/{args.video}.json (streams stubbed)", video_with_login)

    anonymous_ydl = RecordingYDL({"extract_flat": True})

    def series_anonymous():
        info = anonymous_ydl.extract_info(f"https://www.viki.com/tv/{args.series}-x", download=False)
        eq("listed video ids", [e["id"] for e in info.get("entries") or []], expected_ids)
        if not any("token=None" in r["url"] for r in anonymous_ydl.requests):
            raise AssertionError("expected the extractor to send token=None without a login")
        no_refusals(anonymous_ydl)

    check("series without login: the episode pages are read with token=None", series_anonymous)

    # yt-dlp's own application id is unknown here; unsigned logins and public reads treat it as naming none.
    point_at(base, STOCK_APP, STOCK_SECRET)
    stock_ydl = RecordingYDL({**login, "ignore_no_formats_error": True})

    def video_stock_app():
        video_info(stock_ydl, STOCK_APP)
        if not stock_ydl.get_info_extractor("Viki")._token:
            raise AssertionError(f"login with app={STOCK_APP} failed: {stock_ydl.log.warnings}")

    check(f"yt-dlp's own app id ({STOCK_APP}): login and the video read answer unchanged", video_stock_app)

    everything = [channel_ydl, video_ydl, anonymous_ydl, stock_ydl]
    sent = sum(len(y.requests) for y in everything)
    refused = sum(len(y.refused()) for y in everything)
    passed, failed = results.count(True), results.count(False)
    print(f"# {sent} requests sent by yt-dlp, {refused} refused")
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

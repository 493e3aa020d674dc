"""What scripts/clients/ytdlp_viki.py needs besides yt-dlp: a recording YoutubeDL, direct (signed) reads of the API,
and simple readers of the files it compares (SubRip, WebVTT, MPEG-DASH and HLS manifests)."""
import hashlib
import hmac
import json
import re
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

import yt_dlp

OFFICIAL_APP = "100000a"
OFFICIAL_SECRET = "official-dev-secret"
DASH_NS = "urn:mpeg:dash:schema:mpd:2011"


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
        super().__init__({"skip_download": True, "socket_timeout": 30, **params,
                          "quiet": True, "no_warnings": False, "logger": self.log, "proxy": "", "cachedir": False})

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

    def sent(self, fragment):
        """The requests whose URL contains fragment."""
        return [r for r in self.requests if fragment in r["url"]]


_direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only, never via a proxy


def fetch(url, headers=None):
    """(status, headers, body bytes) of a GET, error statuses included."""
    try:
        with _direct.open(urllib.request.Request(url, headers=headers or {}), timeout=30) as res:
            return res.status, res.headers, res.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def api_get(base, path):
    status, _, body = fetch(base + path)
    if status != 200:
        raise AssertionError(f"GET {path} -> {status}: {body[:300]!r}")
    return json.loads(body)


def signed_get(base, path, app=OFFICIAL_APP, secret=OFFICIAL_SECRET):
    """A read signed as yt-dlp signs: headers timestamp and signature, HMAC-SHA1 over `<path>?<query>&t=<timestamp>`
    (docs/api.md, "Signed requests"). Returns (status, headers, body bytes)."""
    path += ("&" if "?" in path else "?") + f"app={app}"
    t = str(int(time.time()))
    sig = hmac.new(secret.encode(), f"{path}&t={t}".encode(), hashlib.sha1).hexdigest()
    return fetch(base + path, {"timestamp": t, "signature": sig})


def signed_json(base, path, **kwargs):
    status, _, body = signed_get(base, path, **kwargs)
    if status != 200:
        raise AssertionError(f"signed GET {path} -> {status}: {body[:300]!r}")
    return json.loads(body)


def _ms(stamp):
    """`01:02:03,456`, `01:02:03.456` or `02:03.456` in milliseconds."""
    parts = re.split(r"[:.,]", stamp.strip())
    h, m, s, ms = ([0] * (4 - len(parts)) + [int(p) for p in parts])
    return ((h * 60 + m) * 60 + s) * 1000 + ms


def _blocks(text):
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return [b.split("\n") for b in re.split(r"\n{2,}", text.strip("\n")) if b.strip()]


def cues(text):
    """(start ms, end ms, text) of each cue of a SubRip or WebVTT file: the timing line, then the lines up to a blank
    line. WebVTT's header and NOTE, STYLE and REGION blocks are skipped, its cue settings dropped."""
    out = []
    for lines in _blocks(text):
        at = next((i for i, line in enumerate(lines) if "-->" in line), None)
        if at is None or at > 1:
            continue  # WEBVTT header, NOTE, STYLE, REGION
        start, end = lines[at].split("-->")
        out.append((_ms(start), _ms(end.split()[0]), "\n".join(lines[at + 1:])))
    return out


def mpd_representations(text):
    """(root tag, [(content type, height or None, lang or None)]) of an MPD's Representations."""
    root = ET.fromstring(text)
    reps = []
    for aset in root.iter(f"{{{DASH_NS}}}AdaptationSet"):
        for rep in aset.iter(f"{{{DASH_NS}}}Representation"):
            height = rep.get("height") or aset.get("height")
            reps.append((aset.get("contentType") or aset.get("mimeType", "").split("/")[0],
                         int(height) if height else None, aset.get("lang")))
    return root, reps


def iso_seconds(duration):
    """Seconds of an xs:duration such as PT1H30M or PT45.5S."""
    m = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?", duration or "")
    if not m:
        raise AssertionError(f"not a duration: {duration!r}")
    h, mi, s = m.groups()
    return int(h or 0) * 3600 + int(mi or 0) * 60 + float(s or 0)


def hls_variants(text):
    """(heights of the #EXT-X-STREAM-INF variants, audio languages of #EXT-X-MEDIA) of an HLS master playlist."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "#EXTM3U":
        raise AssertionError("an HLS playlist starts with #EXTM3U")
    heights = [int(m.group(1)) for line in lines if line.startswith("#EXT-X-STREAM-INF:")
               for m in [re.search(r"RESOLUTION=\d+x(\d+)", line)] if m]
    langs = [m.group(1) for line in lines if line.startswith("#EXT-X-MEDIA:") and "TYPE=AUDIO" in line
             for m in [re.search(r'LANGUAGE="([^"]+)"', line)] if m]
    return heights, langs

"""The demo's playback streams as the local server serves them (scripts/demo/streams.mjs seeds them).

scripts/test-clients.mjs reads the seeded rows from the local D1 and writes a JSON file:
    {"seeded": [R2 keys the seed put], "missing_dash": [normal videos of normal containers without a DASH stream],
     "groups": [{"key", "kind", "resolutions", "audio_languages", "videos": "1,4,9", "longest": seconds}]}
one group per distinct (manifest, kind, resolutions, audio languages). Through the server, one playable video per
manifest: its streams answer names the manifest, the manifest is served, is named by its bytes, parses, and says what
the rows say (heights, audio language, a duration covering its videos).
"""
import hashlib
import json

from viki_support import fetch, hls_variants, iso_seconds, mpd_representations, signed_get

MEDIA_TYPES = {"dash": "application/dash+xml", "hls": "application/vnd.apple.mpegurl"}
ON_DEMAND = "urn:mpeg:dash:profile:isoff-on-demand:2011"


def check_demo_streams(base, path):
    with open(path, encoding="utf-8") as f:
        demo = json.load(f)
    if demo["missing_dash"]:
        raise AssertionError(f"normal videos without a DASH stream: {demo['missing_dash'][:10]}")
    keys = [g["key"] for g in demo["groups"]]
    if len(keys) != len(set(keys)):
        raise AssertionError("streams sharing a manifest disagree on kind, resolutions or audio languages")
    if sorted(keys) != sorted(demo["seeded"]):
        raise AssertionError(f"stream keys and seeded manifests differ: {sorted(set(keys) ^ set(demo['seeded']))[:4]}")
    refused_everywhere = [g["key"] for g in demo["groups"] if not served_for_some_video(base, g)]
    # Upcoming containers' videos are refused by the licence rule; a manifest only they use cannot be fetched here.
    if len(refused_everywhere) == len(keys):
        raise AssertionError("no demo video may play here")
    print(f"#   {len(keys)} manifests for {sum(len(g['videos'].split(',')) for g in demo['groups'])} streams, "
          f"{len(keys) - len(refused_everywhere)} fetched through the server", flush=True)


def served_for_some_video(base, group):
    """Checks the group's manifest through the first of its videos that may play here; False when none may."""
    sha = group["key"].rsplit("/", 1)[1].split(".")[0]
    for video_id in group["videos"].split(",")[:20]:
        status, _, body = signed_get(base, f"/v5/playback_streams/{video_id}v.json")
        if status == 403:
            continue  # refused by the licence (upcoming): another video of the group
        if status != 200:
            raise AssertionError(f"streams of {video_id}v: {status} {body[:200]!r}")
        streams = [s for s in json.loads(body)["main"] if s["kind"] == group["kind"] and sha in s["url"]]
        if len(streams) != 1:
            raise AssertionError(f"{video_id}v: expected one {group['kind']} stream with {sha}")
        stream = streams[0]
        rows = (json.loads(group["resolutions"]), json.loads(group["audio_languages"]))
        if (stream["resolutions"], stream["audio_languages"]) != rows:
            raise AssertionError(f"{video_id}v: the answer says {stream}, the rows {rows}")
        check_manifest(stream["url"], sha, group, *rows)
        return True
    return False


def check_manifest(url, sha, group, heights, languages):
    status, headers, body = fetch(url)
    what = f"{group['kind']} manifest {sha[:12]}"
    if status != 200 or headers.get("content-type") != MEDIA_TYPES[group["kind"]]:
        raise AssertionError(f"{what}: {status} {headers.get('content-type')}")
    if hashlib.sha256(body).hexdigest() != sha:
        raise AssertionError(f"{what}: its bytes do not hash to its name")
    if group["kind"] == "hls":
        got = hls_variants(body.decode("utf-8"))
    else:
        root, reps = mpd_representations(body)
        if root.tag != "{urn:mpeg:dash:schema:mpd:2011}MPD" or root.get("type") != "static":
            raise AssertionError(f"{what}: root {root.tag} type {root.get('type')}")
        if ON_DEMAND not in (root.get("profiles") or "").split(","):
            raise AssertionError(f"{what}: profiles {root.get('profiles')}")
        if iso_seconds(root.get("mediaPresentationDuration")) < group["longest"]:
            raise AssertionError(f"{what}: {root.get('mediaPresentationDuration')} is shorter than a video of "
                                 f"{group['longest']} s")
        got = ([h for kind, h, _ in reps if kind == "video"], [lang for kind, _, lang in reps if kind == "audio"])
    if got != (heights, languages):
        raise AssertionError(f"{what} has heights and languages {got}, its rows {(heights, languages)}")

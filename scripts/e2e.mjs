// npm run test:e2e: a real `wrangler dev` on its own local state (or scripts/e2e-suite.mjs's), exercised over HTTP like a client.
import assert from "node:assert/strict";
import { join } from "node:path";
import { checklist, DEMO_OFFICIAL_APP, e2eServer, e2eState, ROOT, signedHeaders } from "./lib.mjs";

const state = await e2eState(join(ROOT, ".e2e", "state"));
const server = await e2eServer(state, Number(process.env.E2E_PORT ?? 8799));
const { step, finish } = checklist();

try {
  const base = server.base;
  let token;
  await step("alice logs in over HTTP (local development)", async () => {
    const res = await fetch(`${base}/v5/sessions.json`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "alice", password: "alice-password" }),
    });
    assert.equal(res.status, 201);
    const body = await res.json();
    assert.match(body.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(body.user.username, "alice");
    token = body.token;
  });
  await step("the session reads back as alice", async () => {
    const res = await fetch(`${base}/v5/sessions/${token}.json`);
    assert.equal(res.status, 200);
    assert.equal((await res.json()).username, "alice");
  });
  await step("deleting the session makes the token useless", async () => {
    const res = await fetch(`${base}/v5/sessions/${token}.json?token=${token}`, { method: "DELETE" });
    assert.equal(res.status, 204);
    const after = await fetch(`${base}/v5/sessions/${token}.json`);
    assert.equal(after.status, 404);
    assert.equal((await after.json()).vcode, 11);
  });
  await step("the demo's subtitles are read from their container's shard (scripts/demo/shards.mjs)", async () => {
    // The official application's signed reads of the demo's first episode (docs/decisions.md, "Subtitles on the shards").
    const signedGet = (path) => {
      const url = `${base}${path}?app=${DEMO_OFFICIAL_APP.id}`;
      return fetch(url, { headers: signedHeaders(url) });
    };
    const list = await signedGet("/v4/videos/1v/subtitle_tracks.json");
    assert.equal(list.status, 200, await list.clone().text());
    const tracks = (await list.json()).tracks;
    assert.ok(
      tracks.some((t) => t.language === "en"),
      JSON.stringify(tracks),
    );
    const en = await signedGet("/v4/videos/1v/subtitle_tracks/en.json");
    assert.equal(en.status, 200, await en.clone().text());
    const { cues } = await en.json();
    assert.ok(cues.length > 0 && cues.every((c) => c.text.length > 0));
  });
  await step("the OpenAPI document is served", async () => {
    const res = await fetch(`${base}/openapi.json`);
    assert.equal(res.status, 200);
    assert.ok((await res.json()).paths["/v5/sessions.json"]);
  });
} finally {
  server.stop();
}
finish("e2e");

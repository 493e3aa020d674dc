// npm run test:e2e: a real `wrangler dev` on its own local state, exercised over HTTP like a client.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { checklist, ensureDevVars, migrateLocal, ROOT, seedLocal, startDev } from "./lib.mjs";

const persistTo = join(ROOT, ".e2e", "state");
rmSync(persistTo, { recursive: true, force: true });
ensureDevVars();
await migrateLocal(persistTo);
await seedLocal(persistTo);

const server = await startDev({ port: Number(process.env.E2E_PORT ?? 8799), persistTo, stdio: "ignore" });
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
  await step("the OpenAPI document is served", async () => {
    const res = await fetch(`${base}/openapi.json`);
    assert.equal(res.status, 200);
    assert.ok((await res.json()).paths["/v5/sessions.json"]);
  });
} finally {
  server.stop();
}
finish("e2e");

// npm run test:webhooks [-- --imports N] [--port P] [--write]
//
// Webhooks end to end against a real `wrangler dev` (workerd, local D1, R2 and both queues) on its own state
// (.e2e/webhooks-state, rebuilt each run). A small HTTP receiver listens on 127.0.0.1 (the local development
// environment allows loopback receivers over http; staging and production do not). The demo official application
// registers it with a signed request, the staff user `admin` imports SubRip files through that application, and the
// receiver checks that job.succeeded and subtitles.updated arrive with valid signatures (the verification a receiver
// does, written out in README.md "Webhooks"), then that a ping and a redelivery arrive with the same event id.
//
// It also measures, per import, the time from the import's 202 to the job.succeeded delivery at the receiver, next to
// the time until 25 ms polling of GET /v4/jobs/<id>.json first sees `succeeded` (what a client without webhooks
// does). --write puts the figures in docs/performance.md between the webhook markers.
import assert from "node:assert/strict";
import { createHmac, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import {
  checklist,
  cueStarts,
  DEMO_OFFICIAL_APP,
  e2eServer,
  e2eState,
  numberArg,
  ROOT,
  signedHeaders,
  signedUrl,
  srtOf,
  wrangler,
} from "./lib.mjs";
import { shardBindings } from "./d1-bindings.mjs";

const IMPORTS = numberArg("--imports", 5);
const PORT = numberArg("--port", 8796);
const WRITE = process.argv.includes("--write");

/** What a receiver does (README.md, "Webhooks"): HMAC-SHA256 over "<timestamp>.<raw body>", any v1 value may match. */
function verify(secret, headers, rawBody, toleranceSeconds = 300) {
  const timestamp = headers["webhook-timestamp"];
  if (!timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest();
  return String(headers["webhook-signature"] ?? "")
    .split(" ")
    .filter((v) => v.startsWith("v1="))
    .some((v) => {
      const given = Buffer.from(v.slice(3), "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** The receiver: keeps every POST with its arrival time; answers 204. */
function startReceiver() {
  const received = [];
  const waiters = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const delivery = { at: performance.now(), path: req.url, headers: req.headers, raw, body: JSON.parse(raw.toString("utf8")) };
      received.push(delivery);
      res.writeHead(204).end();
      for (const w of [...waiters]) {
        if (!w.match(delivery)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(delivery);
      }
    });
  });
  const next = (match, timeoutMs = 30_000) => {
    const seen = received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching delivery within ${timeoutMs} ms`)), timeoutMs);
      const done = (d) => {
        clearTimeout(timer);
        resolve(d);
      };
      waiters.push({ match, resolve: done });
    });
  };
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, received, next, port: server.address().port })));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const state = await e2eState(join(ROOT, ".e2e", "webhooks-state"));
const { persistTo } = state;

// A video without segments: the first import creates them, the next ones match them and change their text. Segments
// are on the shards (docs/decisions.md, "Subtitles on the shards"): the timed videos are asked of each.
const local = (binding, command) =>
  JSON.parse(wrangler(["d1", "execute", binding, "--local", "--persist-to", persistTo, "--json", "--command", command], { quiet: true }))[0]
    .results;
const timed = (await shardBindings()).flatMap((binding) => local(binding, "SELECT DISTINCT video_id FROM segments").map((r) => r.video_id));
const [{ id: untimed }] = local(
  "DB",
  `SELECT id FROM videos WHERE state = 'normal' AND id NOT IN (SELECT value FROM json_each('${JSON.stringify(timed)}')) ORDER BY id LIMIT 1`,
);
const video = `${untimed}v`;

const receiver = await startReceiver();
const server = await e2eServer(state, PORT);
const base = server.base;
const { step, finish } = checklist();
const app = DEMO_OFFICIAL_APP.id;

/**
 * A request signed by the demo official application (docs/api.md, "Signed requests"): the webhook routes have no user
 * token, so writes sign their method (`sig_v=2`, with a nonce).
 */
async function signed(method, path, json) {
  const plain = `${base}${path}${path.includes("?") ? "&" : "?"}app=${app}`;
  const write = method !== "GET";
  const url = write ? signedUrl(plain) : plain;
  const body = json === undefined ? undefined : JSON.stringify(json);
  const headers = signedHeaders(url, body, undefined, write ? method : undefined);
  const res = await fetch(url, { method, headers: { "content-type": "application/json", ...headers }, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const timings = [];
try {
  let token, webhook, secret;
  await step("the staff user logs in", async () => {
    const login = await fetch(`${base}/v5/sessions.json`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "admin-password" }),
    });
    assert.equal(login.status, 201);
    token = (await login.json()).token;
  });

  await step("the official application registers the local receiver (http on loopback: local development only)", async () => {
    const res = await signed("POST", "/v4/webhooks.json", {
      url: `http://127.0.0.1:${receiver.port}/hooks`,
      events: ["job.succeeded", "job.failed", "subtitles.updated", "completion.updated"],
      description: "webhooks-e2e receiver",
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    ({ webhook, secret } = res.body);
    assert.match(secret, /^whsec_/);
    assert.equal(webhook.status, "active");
  });

  await step(`${IMPORTS} imports: job.succeeded and subtitles.updated arrive, signed`, async () => {
    for (let i = 0; i < IMPORTS; i++) {
      const url = `${base}/v4/videos/${video}/subtitles/import_srt.json?app=${app}&language=en&token=${token}`;
      const body = srtOf(cueStarts(20), (n) => `Webhook run ${i}, line ${n + 1}`);
      const started = performance.now();
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-subrip", ...signedHeaders(url, body) },
        body,
      });
      assert.equal(res.status, 202, await res.clone().text());
      const accepted = performance.now();
      const { job } = await res.json();
      const delivered = receiver.next((d) => d.body.type === "job.succeeded" && d.body.data.job_id === job.id);
      for (;;) {
        const { job: now } = await (await fetch(`${base}/v4/jobs/${job.id}.json?token=${token}`)).json();
        if (now.status === "succeeded") break;
        assert.notEqual(now.status, "failed", now.error);
        await new Promise((r) => setTimeout(r, 25));
      }
      const polled = performance.now();
      const hook = await delivered;
      assert.ok(verify(secret, hook.headers, hook.raw), "job.succeeded signature verifies");
      assert.equal(hook.headers["webhook-id"], hook.body.id);
      assert.ok(hook.body.data.result.created + hook.body.data.result.updated > 0, JSON.stringify(hook.body));
      const subs = await receiver.next((d) => d.body.type === "subtitles.updated" && d.at >= started && d.body.data.video_id === video);
      assert.ok(verify(secret, subs.headers, subs.raw), "subtitles.updated signature verifies");
      assert.equal(subs.body.data.language, "en");
      assert.ok(!verify("whsec_wrong", hook.headers, hook.raw), "a wrong secret does not verify");
      timings.push({
        accepted: accepted - started,
        delivered: hook.at - accepted,
        polled: polled - accepted,
        subtitles: subs.at - accepted,
      });
    }
  });

  await step("the deliveries are listed with status code and latency", async () => {
    const res = await signed("GET", `/v4/webhooks/${webhook.id}/deliveries.json`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const list = res.body.response;
    assert.ok(list.length >= IMPORTS * 2);
    const done = list.find((d) => d.status === "succeeded");
    assert.equal(done.last_attempt.status_code, 204);
    assert.equal(typeof done.last_attempt.latency_ms, "number");
  });

  await step("a ping arrives, and a redelivery carries the same event id", async () => {
    const ping = await signed("POST", `/v4/webhooks/${webhook.id}/ping.json`);
    assert.equal(ping.status, 202, JSON.stringify(ping.body));
    const pinged = await receiver.next((d) => d.body.type === "ping");
    assert.ok(verify(secret, pinged.headers, pinged.raw));
    const before = receiver.received.filter((d) => d.body.id === pinged.body.id).length;
    const again = await signed("POST", `/v4/webhooks/${webhook.id}/deliveries/${ping.body.delivery.id}/redeliver.json`);
    assert.equal(again.status, 202, JSON.stringify(again.body));
    await receiver.next((d) => d.body.id === pinged.body.id && d.headers["webhook-delivery"] === again.body.delivery.id);
    assert.equal(receiver.received.filter((d) => d.body.id === pinged.body.id).length, before + 1);
  });
} finally {
  server.stop();
  receiver.server.close();
}

if (timings.length) {
  const ms = (v) => `${Math.round(v)} ms`;
  const figures = {
    delivered: median(timings.map((t) => t.delivered)),
    polled: median(timings.map((t) => t.polled)),
    subtitles: median(timings.map((t) => t.subtitles)),
  };
  const gap = timings.map((t) => t.delivered - t.polled);
  const table = [
    `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: \`npm run test:webhooks -- --imports ${IMPORTS}\` (20-cue imports through`,
    "`wrangler dev`, a receiver on 127.0.0.1; medians, from the import's 202, which includes the jobs queue's 1 s batch wait):",
    "",
    "| what | median | each import |",
    "|---|--:|---|",
    `| \`job.succeeded\` delivered at the receiver | ${ms(figures.delivered)} | ${timings.map((t) => ms(t.delivered)).join(", ")} |`,
    `| \`subtitles.updated\` delivered | ${ms(figures.subtitles)} | ${timings.map((t) => ms(t.subtitles)).join(", ")} |`,
    `| polling every 25 ms first sees \`succeeded\` | ${ms(figures.polled)} | ${timings.map((t) => ms(t.polled)).join(", ")} |`,
    `| **finished import to delivery**: delivery minus polling's first \`succeeded\` (negative: the webhook came first) | ${ms(median(gap))} | ${gap.map(ms).join(", ")} |`,
  ].join("\n");
  console.log(`\n${table}\n`);
  if (WRITE) {
    const doc = join(ROOT, "docs", "performance.md");
    const [START, END] = ["<!-- webhooks:start -->", "<!-- webhooks:end -->"];
    const text = existsSync(doc) ? readFileSync(doc, "utf8") : "";
    const a = text.indexOf(START);
    const b = text.indexOf(END);
    writeFileSync(
      doc,
      a !== -1 && b > a
        ? `${text.slice(0, a + START.length)}\n${table}\n${text.slice(b)}`
        : `${text.trimEnd()}\n\n${START}\n${table}\n${END}\n`,
    );
    console.log(`written to ${doc}`);
  }
}
finish("webhooks e2e");

// A client written only from what /openapi.json and docs/api.md publish: the types openapi-typescript generates from
// the server's document (./api.d.ts), openapi-fetch, and the signing function of docs/api.md, "Signing a request"
// (./sign.mjs, taken from the page). npm run test:client-gen (scripts/test-generated-client.mjs) puts the three beside
// this file, type-checks it with tsc and runs it against wrangler dev: a public read, a user's write, official-only
// routes signed by a middleware, and a write signed by the application alone. One line per check, PASS or FAIL.
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./api";
import { signUrl } from "./sign.mjs";

// Node's globals this file uses: the project has no @types/node.
declare const process: { argv: string[]; exitCode?: number };

const [base, appId, secret] = process.argv.slice(2);

/**
 * Signs each request with the application's secret: `app` when the call did not name it, then `t` and `sig` by
 * `signUrl`; version 2 (the method signed too) when the call says `sig_v=2`, as the document makes writes signed by an
 * application alone say. The body is signed and sent as the same bytes.
 */
const signing = (app: string, key: string): Middleware => ({
  async onRequest({ request }) {
    const url = new URL(request.url);
    if (!url.searchParams.has("app")) url.searchParams.set("app", app);
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const version = url.searchParams.get("sig_v") === "2" ? 2 : 1;
    const signed = await signUrl(url.href, key, { method: request.method, body, version });
    return new Request(signed, { method: request.method, headers: request.headers, body });
  },
});

const anonymous = createClient<paths>({ baseUrl: base });
const official = createClient<paths>({ baseUrl: base });
official.use(signing(appId, secret));

let failed = 0;
function check(name: string, ok: boolean, detail?: unknown) {
  if (!ok) failed++;
  console.log(`${ok ? "PASS" : "FAIL"} - ${name}${ok ? "" : `: ${JSON.stringify(detail)}`}`);
}

// A public read, no credentials: the demo series yt-dlp's driver reads too.
const series = await anonymous.GET("/v4/series/{container_id}.json", { params: { path: { container_id: "11c" } } });
check("public read: GET /v4/series/11c.json", series.response.status === 200 && series.data?.type === "series", series.error);

// A user's write: log in as the demo user alice, then mark the series with her token.
const login = await anonymous.POST("/v5/sessions.json", { body: { username: "alice", password: "alice-password" } });
check("login: POST /v5/sessions.json", login.response.status === 201 && !!login.data?.token, login.error);
const user = { user_id: login.data?.user.id ?? "", token: login.data?.token ?? "" };
const bearer = { authorization: `Bearer ${user.token}` };
const marked = await anonymous.POST("/v4/users/{user_id}/markers.json", {
  params: { path: { user_id: user.user_id } },
  body: { resource_id: "11c" },
  headers: bearer,
});
check("user write: POST /v4/users/{alice}/markers.json", marked.response.ok, marked.error);
const markers = await anonymous.GET("/v4/users/{user_id}/markers.json", {
  params: { path: { user_id: user.user_id }, query: { only_ids: true, per_page: 100 } },
  headers: bearer,
});
check("the marker is listed", JSON.stringify(markers.data ?? {}).includes('"11c"'), markers.error);

// Official-only routes, signed by the middleware. `app` is a required parameter there, so the call names it.
const completions = await official.POST("/v4/subtitle_completions.json", {
  params: { query: { app: appId } },
  body: { video_ids: ["1v"] },
});
check("official write-form read (v1): POST /v4/subtitle_completions.json", completions.response.status === 200, completions.error);
const tracks = await official.GET("/v4/videos/{video_id}/subtitle_tracks.json", {
  params: { path: { video_id: "1v" }, query: { app: appId } },
});
check("official read (v1): GET /v4/videos/1v/subtitle_tracks.json", tracks.response.status === 200, tracks.error);
const unsigned = await anonymous.POST("/v4/subtitle_completions.json", {
  params: { query: { app: appId } },
  body: { video_ids: ["1v"] },
});
check("the same without the middleware is refused (401)", unsigned.response.status === 401, unsigned.error);

// A write signed by the application alone: the document requires `sig_v=2` there, so the call says it.
const hook = await official.POST("/v4/webhooks.json", {
  params: { query: { app: appId, sig_v: "2", nonce: crypto.randomUUID() } },
  body: { url: "http://127.0.0.1:9/hooks", description: "test:client-gen" },
});
check("signature-only write (v2): POST /v4/webhooks.json", hook.response.status === 201 && !!hook.data?.secret, hook.error);

// What the types refuse, checked by tsc: each line below must be a type error.
export async function refusedByTheTypes() {
  // @ts-expect-error official-only: `app` is required.
  await official.POST("/v4/subtitle_completions.json", { body: { video_ids: ["1v"] } });
  // @ts-expect-error a write signed by the application alone names `sig_v: "2"`.
  await official.POST("/v4/webhooks.json", { params: { query: { app: appId } }, body: { url: "http://127.0.0.1:9/hooks" } });
  // @ts-expect-error a path the server does not serve.
  await anonymous.GET("/v4/no_such_thing.json");
}

console.log(`generated client: ${failed ? `${failed} failed` : "all passed"}`);
process.exitCode = failed ? 1 : 0;

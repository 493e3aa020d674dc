// The authorization matrix of the write routes outside /v4/users/<id>/, part 3: webhook endpoints (docs/decisions.md,
// "Endpoints belong to a signed application, not a user"). An application signs as itself; no user token is involved.
// Part 1, access-writes.test.ts, checks that every write of /openapi.json is covered somewhere.
import { api, createApplication, type Target } from "../helpers";
import { describe, test } from "../helpers/fixtures";
import { expectRefused, expectStatus } from "../helpers/write-authz";
import { stubReceivers } from "../helpers/outbound";

stubReceivers();

/** A fresh application with one endpoint and one delivery (a ping) of it. */
async function scene() {
  const app = (await createApplication()).wireId;
  const created = await api({ path: "/v4/webhooks.json", json: { url: "https://receiver.example.com/hook" } }, { method: "POST", app });
  const webhook = ((await created.json()) as { webhook: { id: string } }).webhook.id;
  const pinged = await api({ path: `/v4/webhooks/${webhook}/ping.json` }, { method: "POST", app });
  const delivery = ((await pinged.json()) as { delivery: { id: string } }).delivery.id;
  return { app, webhook, delivery };
}
type Scene = Awaited<ReturnType<typeof scene>>;

interface WebhookWrite {
  op: string;
  ok: number;
  /** Routes of one endpoint: another application's request is a 404. */
  ofEndpoint: boolean;
  target: (s: Scene) => Target;
}

const ROUTES: WebhookWrite[] = [
  {
    op: "POST /v4/webhooks.json",
    ok: 201,
    ofEndpoint: false,
    target: () => ({ path: "/v4/webhooks.json", json: { url: "https://receiver.example.com/other" } }),
  },
  {
    op: "PATCH /v4/webhooks/{webhook_id}.json",
    ok: 200,
    ofEndpoint: true,
    target: (s) => ({ path: `/v4/webhooks/${s.webhook}.json`, json: { description: "changed" } }),
  },
  {
    op: "PUT /v4/webhooks/{webhook_id}.json",
    ok: 200,
    ofEndpoint: true,
    target: (s) => ({ path: `/v4/webhooks/${s.webhook}.json`, json: { active: false } }),
  },
  { op: "DELETE /v4/webhooks/{webhook_id}.json", ok: 204, ofEndpoint: true, target: (s) => ({ path: `/v4/webhooks/${s.webhook}.json` }) },
  {
    op: "POST /v4/webhooks/{webhook_id}/secret.json",
    ok: 200,
    ofEndpoint: true,
    target: (s) => ({ path: `/v4/webhooks/${s.webhook}/secret.json` }),
  },
  {
    op: "POST /v4/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver.json",
    ok: 202,
    ofEndpoint: true,
    target: (s) => ({ path: `/v4/webhooks/${s.webhook}/deliveries/${s.delivery}/redeliver.json` }),
  },
  {
    op: "POST /v4/webhooks/{webhook_id}/ping.json",
    ok: 202,
    ofEndpoint: true,
    target: (s) => ({ path: `/v4/webhooks/${s.webhook}/ping.json` }),
  },
];

describe("webhook endpoints: the application that owns them, signed; no user token needed", () => {
  for (const route of ROUTES) {
    test(route.op, async ({ user, officialApp, partnerApp }) => {
      const method = route.op.split(" ")[0];
      const s = await scene();
      const target = route.target(s);
      await expectRefused(await api(target, { method, token: user.token }), "no app= (a user token does not do)", 400, 5002, "app");
      await expectRefused(await api(target, { method, app: s.app, unsigned: true }), "its application, unsigned", 401, 4, "sig");
      if (route.ofEndpoint) {
        await expectRefused(await api(target, { method, app: partnerApp }), "another application", 404, 404);
        await expectRefused(await api(target, { method, app: officialApp, token: user.token }), "an official application", 404, 404);
      }
      await expectStatus(await api(target, { method, app: s.app }), "its application, signed", route.ok);
    });
  }
});

import { beforeAll, describe, expect, it } from "vitest";
import { api, createApplication } from "../helpers";
import { createContainer } from "../helpers/catalogue";

/**
 * `app=` is public (every client's URLs carry it), so naming an application with unhosted access proves nothing: fan
 * channels are listed only for its signed request, and that answer is never edge-cached (docs/decisions.md, "Public
 * listings by facet name").
 */

let fanApp: string;
let fan: string;
let open: string;
beforeAll(async () => {
  fanApp = (await createApplication({ unhosted: true })).wireId;
  fan = `${(await createContainer({ type: "artist", hosted: false, title: "Garage fan channel" })).id}c`;
  open = `${(await createContainer({ type: "artist", title: "Public artist" })).id}c`;
});

const ids = async (res: Response) => ((await res.json()) as { response: string[] }).response;

describe("fan channels need a signed request", () => {
  it("an unsigned app= of an application with unhosted access lists no fan channel, before or after a signed one", async () => {
    const path = `/v4/artists.json?hosted=0&only_ids=true&per_page=100&app=${fanApp}`;
    const unsigned = await api(path, { unsigned: true });
    expect(unsigned.status).toBe(200);
    const listed = await ids(unsigned);
    expect(listed).not.toContain(fan);
    expect(listed).toContain(open);

    const signed = await api(path);
    expect(signed.status).toBe(200);
    expect(await ids(signed)).toEqual([fan]);
    // Never shared: the signed answer is private and stays out of the edge cache.
    expect(signed.headers.get("cache-control")).toBe("private, no-store");

    for (let i = 0; i < 2; i++) {
      const again = await api(path, { unsigned: true });
      expect(await ids(again)).not.toContain(fan);
      expect(again.headers.get("cache-control")).toMatch(/^public/);
    }
  });
});

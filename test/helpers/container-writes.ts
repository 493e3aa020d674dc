import { expect } from "vitest";
import { api, errorBody } from ".";

/** A v4 call with `token=` and a JSON body. */
export const send = (method: string, path: string, token?: string, json?: unknown) =>
  api(token ? `${path}?token=${token}` : path, { method, json });
export const post = (token: string | undefined, json: unknown) => send("POST", "/v4/containers.json", token, json);
export const put = (id: string, token: string | undefined, json: unknown) => send("PUT", `/v4/containers/${id}.json`, token, json);
export const del = (id: string, token?: string) => send("DELETE", `/v4/containers/${id}.json`, token);

export const read = async (id: string, token?: string) => (await send("GET", `/v4/containers/${id}.json`, token)).json() as Promise<any>;

/** The smallest valid container body. */
export const minimal = (over: Record<string, unknown> = {}) => ({
  type: "series",
  origin: { country: "kr", language: "ko" },
  titles: { en: `Series ${crypto.randomUUID()}` },
  ...over,
});

/** The fields a 400 names. */
export async function fieldsOf(res: Response) {
  expect(res.status).toBe(400);
  const body = await errorBody(res);
  expect(body.vcode).toBe(5002);
  return body.details!.map((d) => d.field);
}

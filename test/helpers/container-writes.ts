import { expect } from "vitest";
import { api, errorBody, type User } from ".";
import { createContainer } from "./catalogue";

export const post = (token: string | undefined, json: unknown) => api("/v4/containers.json", { method: "POST", token, json });
export const put = (id: string, token: string | undefined, json: unknown) =>
  api(`/v4/containers/${id}.json`, { method: "PUT", token, json });
export const del = (id: string, token?: string) => api(`/v4/containers/${id}.json`, { method: "DELETE", token });

export const read = async (id: string, token?: string) => (await api(`/v4/containers/${id}.json`, { token })).json() as Promise<any>;

/** A container `manager` manages, made through the database. */
export const managedBy = (manager: User, over: Parameters<typeof createContainer>[0] = {}) =>
  createContainer({ managers: [manager.user.id], ...over });

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

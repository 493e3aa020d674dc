// Type-checked against the types openapi-typescript generates from /openapi.json (npm run openapi:check): a
// client written from the document must compile. Nothing runs; each line is a claim about the document.
import type { components, operations, paths } from "./api";

type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;

// The v5 login is one of the credential bodies; mixing two does not type-check.
type Login = Json<paths["/v5/sessions.json"]["post"]["requestBody"]>;
export const logins: Login[] = [
  { username: "alice", password: "secret" },
  { social_token: "eyJ..." },
  { idp_token: "eyJ..." },
  { retailer_params: "retailer=shop&user_ref=1&expires=1&sig=00" },
  { store_token: "eyJ..." },
];
export const session: Json<paths["/v5/sessions.json"]["post"]["responses"][201]>["token"] = "token";

// The OAuth token endpoint at the path clients call, with its form body.
type TokenForm = NonNullable<paths["/oauth/token"]["post"]["requestBody"]>["content"]["application/x-www-form-urlencoded"];
export const form: TokenForm = { grant_type: "client_credentials", client_id: "100001a", client_secret: "s" };
export const grant: Json<paths["/oauth/token"]["post"]["responses"][200]>["token_type"] = "bearer";

// One path item for the timed comments of a language and a comment's deletion.
type TimedComments = paths["/v4/videos/{video_id}/timed_comments/{language_or_id}.json"];
export const list: TimedComments["get"]["parameters"]["path"] = { video_id: "1v", language_or_id: "fr" };
export const remove: TimedComments["delete"]["parameters"]["path"] = { video_id: "1v", language_or_id: "12tc" };

// Reads and errors by operationId and component.
export const container: Json<operations["getV4ContainersByContainerId"]["responses"][200]>["id"] = "50c";
export const error: components["schemas"]["Error"] = { error: "not found", vcode: 404, request_id: "r" };

// Response headers are part of the contract.
export const rateLimited: operations["postV5Sessions"]["responses"][429]["headers"]["Retry-After"] = 60;
export const etag: operations["getV4ContainersByContainerId"]["responses"][200]["headers"]["ETag"] = '"abc"';

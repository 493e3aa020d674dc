import { env } from "cloudflare:workers";
import { issueV3Token } from "../../src/lib/v3-tokens";

/** A valid v3 access token for any client id (the token check does not look the client up). */
export const v3Token = () => issueV3Token(env.V3_TOKEN_SECRET, { clientId: 1 });

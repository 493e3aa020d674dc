import type { Context } from "hono";
import type { AppEnv } from "../types";
import type { ViewContext } from "../views/catalogue";

export function viewContext(c: Context<AppEnv>): ViewContext {
  const cf = c.req.raw.cf as { country?: string } | undefined;
  return {
    origin: new URL(c.req.url).origin,
    webOrigin: c.env.WEB_ORIGIN,
    region: cf?.country && cf.country !== "XX" ? cf.country.toLowerCase() : undefined,
  };
}

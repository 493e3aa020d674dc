import type { Context } from "hono";
import { listEnvelope, paging } from "../../lib/paging";
import { viewContext } from "../../lib/view-context";
import { countFollows, followWireId, readFollowPage, type FollowKind } from "../../services/follows";
import type { AppEnv } from "../../types";
import { followItemView } from "../../views/community";

/**
 * One page of the owner's subscriptions or markers in the v4 envelope. Items that are no longer listable
 * (deleted or hidden since they were followed) drop out of the page. `only_count=true` answers
 * `{"count": N}`, the number of follows, as `with_paging` counts them.
 */
export async function followPageBody(
  c: Context<AppEnv>,
  kind: FollowKind,
  stampKey: "subscribed_at" | "marked_at",
  query: Parameters<typeof paging>[0] & { only_count?: boolean },
) {
  if (query.only_count) return { count: await countFollows(c.get("db"), kind, c.get("owner").id) };
  const p = paging(query);
  const { rows, items, count } = await readFollowPage(c.get("db"), kind, c.get("owner").id, p);
  const ctx = viewContext(c);
  return listEnvelope(
    c.req.url,
    p,
    rows,
    (row) => {
      const item = items.get(followWireId(row));
      return item ? followItemView(item, stampKey, ctx) : null;
    },
    followWireId,
    count,
  );
}

import { lt } from "drizzle-orm";
import type { DB } from "../client";
import { usedSignatures } from "../schema";

/**
 * Records a signature as used; false when it already was (a replay). One INSERT: the primary key decides, so two
 * copies of a request racing each other cannot both pass.
 */
export async function claimSignature(db: DB, signature: string, expiresAt: number): Promise<boolean> {
  const rows = await db
    .insert(usedSignatures)
    .values({ signature, expiresAt })
    .onConflictDoNothing()
    .returning({ signature: usedSignatures.signature });
  return rows.length === 1;
}

/** Forgets signatures whose timestamp window has closed (a stale timestamp is refused before any lookup). */
export async function sweepUsedSignatures(db: DB, nowSeconds: number): Promise<number> {
  const rows = await db
    .delete(usedSignatures)
    .where(lt(usedSignatures.expiresAt, nowSeconds))
    .returning({ signature: usedSignatures.signature });
  return rows.length;
}

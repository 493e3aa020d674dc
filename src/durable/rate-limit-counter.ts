import { DurableObject } from "cloudflare:workers";

/** What one counted request learns: whether it may go on, what is left of the quota, and when the window ends. */
interface QuotaCount {
  allowed: boolean;
  /** Requests still allowed in this window after this one. */
  remaining: number;
  /** Seconds until the window ends and the quota is whole again (at least 1). */
  reset: number;
}

interface Window {
  start: number;
  /** When the window ends, in seconds since the epoch. */
  end: number;
  count: number;
}

const WINDOW_KEY = "window";

/**
 * One rate-limit key (a policy and a client, user or account: `src/services/rate-limits.ts`), counted in fixed windows
 * aligned to the clock (docs/decisions.md, "Rate limits"). A Durable Object, not a Rate Limiting binding, because the
 * IETF `RateLimit` field states the remaining quota and the reset on every answer, and a binding answers only "allowed
 * or not". Requests for one key run one at a time here, so the count is exact; a refused request is not counted. The
 * window is stored (an evicted object keeps its count) and an alarm at its end deletes it, so idle keys hold nothing.
 */
export class RateLimitCounter extends DurableObject<Env> {
  async count(quota: number, windowSeconds: number): Promise<QuotaCount> {
    const now = Math.floor(Date.now() / 1000);
    const start = now - (now % windowSeconds);
    const reset = Math.max(1, start + windowSeconds - now);
    const stored = await this.ctx.storage.get<Window>(WINDOW_KEY);
    const count = stored?.start === start ? stored.count : 0;
    if (count >= quota) return { allowed: false, remaining: 0, reset };
    const end = start + windowSeconds;
    await this.ctx.storage.put<Window>(WINDOW_KEY, { start, end, count: count + 1 });
    if (count === 0) await this.ctx.storage.setAlarm(end * 1000);
    return { allowed: true, remaining: quota - count - 1, reset };
  }

  override async alarm() {
    const stored = await this.ctx.storage.get<Window>(WINDOW_KEY);
    // A window that began after this alarm was set keeps its count until its own end.
    if (stored && stored.end * 1000 > Date.now()) await this.ctx.storage.setAlarm(stored.end * 1000);
    else await this.ctx.storage.deleteAll();
  }
}

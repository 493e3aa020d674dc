import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/lib/errors";
import {
  caller,
  canManageContainer,
  canSeeContainer,
  canSeeVideo,
  isListedManager,
  isVisible,
  requireManager,
  requireVisibleContainer,
  requireVisibleVideo,
} from "../../src/services/access";
import type { User } from "../../src/types";
import { createUser, db } from "../helpers";
import { createContainer, createVideo } from "../helpers/catalogue";

const s = (state: string) => ({ state });

describe("isVisible: the public rule", () => {
  it("a container is public when normal", () => {
    expect(isVisible(s("normal"))).toBe(true);
    expect(isVisible(s("pending"))).toBe(false);
    expect(isVisible(s("blocked"))).toBe(false);
  });

  it("a video is public when it and its container are normal", () => {
    expect(isVisible(s("normal"), s("normal"))).toBe(true);
    expect(isVisible(s("normal"), s("pending"))).toBe(false);
    expect(isVisible(s("normal"), s("blocked"))).toBe(false);
    expect(isVisible(s("pending"), s("normal"))).toBe(false);
    expect(isVisible(s("blocked"), s("normal"))).toBe(false);
  });
});

/** The status a promise fails with, or "ok". */
async function outcome(p: Promise<unknown>) {
  try {
    await p;
    return "ok";
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
}

type Role = "anonymous" | "user" | "manager" | "staff";
const ROLES: Role[] = ["anonymous", "user", "manager", "staff"];
const users = {} as Record<Role, User | undefined>;
let fixtures: Record<string, { container: Awaited<ReturnType<typeof createContainer>>; video: Awaited<ReturnType<typeof createVideo>> }>;

beforeAll(async () => {
  users.anonymous = undefined;
  users.user = (await createUser()).user;
  users.manager = (await createUser()).user;
  users.staff = (await createUser({ staff: true })).user;
  const managers = [users.manager.id];
  const make = async (containerState: "normal" | "pending" | "blocked", videoState: "normal" | "pending" = "normal") => {
    const container = await createContainer({ state: containerState, managers });
    return { container, video: await createVideo(container.id, { state: videoState }) };
  };
  fixtures = {
    normal: await make("normal"),
    pending: await make("pending"),
    blocked: await make("blocked"),
    pendingVideo: await make("normal", "pending"),
  };
});

// Who sees what (true) and, for the rest, what a write answers: 404 to whoever cannot see it, 403 to
// whoever can see but not manage it.
const SEES: Record<string, Record<Role, boolean>> = {
  normal: { anonymous: true, user: true, manager: true, staff: true },
  pending: { anonymous: false, user: false, manager: true, staff: true },
  blocked: { anonymous: false, user: false, manager: true, staff: true },
  pendingVideo: { anonymous: false, user: false, manager: true, staff: true },
};
const MANAGES: Record<Role, boolean> = { anonymous: false, user: false, manager: true, staff: true };

describe.each(ROLES)("as %s", (role) => {
  it("containers: seen when public or managed; writes 404 when unseen, 403 when seen but not managed", async () => {
    for (const name of ["normal", "pending", "blocked"] as const) {
      const { container } = fixtures[name];
      const who = caller(db(), users[role]);
      const sees = SEES[name][role];
      expect(await canSeeContainer(who, container), name).toBe(sees);
      expect(await outcome(requireVisibleContainer(who, container)), name).toBe(sees ? "ok" : 404);
      expect(await canManageContainer(db(), users[role], container.id), name).toBe(MANAGES[role]);
      expect(await outcome(requireManager(who, { container })), name).toBe(MANAGES[role] ? "ok" : sees ? 403 : 404);
    }
  });

  it("videos: a normal video in a hidden container is hidden; so is a pending video in a normal one", async () => {
    for (const name of ["normal", "pending", "blocked", "pendingVideo"] as const) {
      const found = fixtures[name];
      const who = caller(db(), users[role]);
      const sees = SEES[name][role];
      expect(await canSeeVideo(who, found), name).toBe(sees);
      expect(await outcome(requireVisibleVideo(who, found)), name).toBe(sees ? "ok" : 404);
      expect(await outcome(requireManager(who, found)), name).toBe(MANAGES[role] ? "ok" : sees ? 403 : 404);
    }
  });

  it("speaking for a container takes a listed manager: staff are not implied", async () => {
    expect(await isListedManager(db(), users[role], fixtures.normal.container.id)).toBe(role === "manager");
  });
});

describe("the requirements", () => {
  it("a missing row is 404 whoever asks", async () => {
    const who = caller(db(), users.staff);
    expect(await outcome(requireVisibleContainer(who, undefined))).toBe(404);
    expect(await outcome(requireVisibleVideo(who, undefined))).toBe(404);
    expect(await outcome(requireManager(who, undefined))).toBe(404);
  });

  it("a 403 carries the caller's message", async () => {
    const err = await requireManager(caller(db(), users.user), fixtures.normal, "only managers see this").catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 403, message: "only managers see this" });
  });

  it("a caller looks each container's managers up once", async () => {
    let lookups = 0;
    const counting = new Proxy(db(), {
      get(target, prop, receiver) {
        if (prop === "select") lookups++;
        return Reflect.get(target, prop, receiver);
      },
    });
    const who = caller(counting, users.manager);
    const { container } = fixtures.pending;
    expect(await canSeeContainer(who, container)).toBe(true);
    await requireManager(who, { container });
    expect(await who.manages(container.id)).toBe(true);
    expect(lookups).toBe(1);
    // Public rows need no lookup at all.
    await requireVisibleVideo(who, fixtures.normal);
    expect(lookups).toBe(1);
  });
});

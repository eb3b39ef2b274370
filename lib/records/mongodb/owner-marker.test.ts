import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { claimMongoOwnership, isOwnerMarkerCommand, readMongoOwner, type OwnerMarkerCollection } from "./owner-marker";

/**
 * A stand-in for the `_flowpoint` collection that records every driver call and answers as a
 * MongoDB server does: `_id` is unique (a second insert of "owner" is E11000), an upsert whose
 * filter matches nothing inserts, `$setOnInsert` only applies on insert. Each call yields to the
 * event loop first, so claims started together interleave like concurrent requests.
 */
function fakeMarkerCollection(initial?: Record<string, unknown>) {
  let stored: Record<string, unknown> | null = initial ? { ...initial } : null;
  const calls: Array<{ method: string; args: unknown[] }> = [];
  const duplicateKey = () => Object.assign(new Error("E11000 duplicate key error collection: shop._flowpoint index: _id_ dup key"), { code: 11000 });
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const collection: OwnerMarkerCollection = {
    async findOne(filter, options) {
      calls.push({ method: "findOne", args: [filter, options] });
      await tick();
      return stored && stored._id === filter._id ? { ...stored } : null;
    },
    async updateOne(filter, update, options) {
      calls.push({ method: "updateOne", args: [filter, update, options] });
      await tick();
      if (stored && stored._id === filter._id) return { matchedCount: 1, upsertedCount: 0 };
      stored = { _id: filter._id, ...update.$setOnInsert };
      return { matchedCount: 0, upsertedCount: 1 };
    },
    async replaceOne(filter, replacement, options) {
      calls.push({ method: "replaceOne", args: [filter, replacement, options] });
      await tick();
      const matches = stored && stored._id === filter._id && stored.projectId !== filter.projectId.$ne;
      if (matches) {
        stored = { _id: filter._id, ...replacement };
        return { matchedCount: 1 };
      }
      if (stored) throw duplicateKey(); // the upsert's insert collides with the marker of this project
      stored = { _id: filter._id, ...replacement };
      return { upsertedCount: 1 };
    },
  };
  return { collection, calls, stored: () => stored };
}

const remainingMs = () => 4_321;
const now = new Date("2026-01-02T03:04:05.678Z");

describe("MongoDB ownership marker", () => {
  it("reads the owner document by its fixed _id, with maxTimeMS; null when there is none", async () => {
    const empty = fakeMarkerCollection();
    expect(await readMongoOwner(empty.collection, remainingMs)).toBeNull();
    expect(empty.calls).toEqual([{ method: "findOne", args: [{ _id: "owner" }, { maxTimeMS: 4_321 }] }]);

    const held = fakeMarkerCollection({ _id: "owner", projectId: "prj_a", workspaceId: "wks_1", attachedAt: now });
    expect(await readMongoOwner(held.collection, remainingMs)).toEqual({ projectId: "prj_a", workspaceId: "wks_1", attachedAt: "2026-01-02T03:04:05.678Z" });
  });

  it("claims with an upsert that only sets fields on insert, then reads the marker back", async () => {
    const marker = fakeMarkerCollection();
    const owner = await claimMongoOwnership(marker.collection, { projectId: "prj_a", workspaceId: "wks_1" }, { remainingMs, now });
    expect(owner).toEqual({ projectId: "prj_a", workspaceId: "wks_1", attachedAt: now.toISOString() });
    expect(marker.calls).toEqual([
      {
        method: "updateOne",
        args: [{ _id: "owner" }, { $setOnInsert: { projectId: "prj_a", workspaceId: "wks_1", attachedAt: now } }, { upsert: true, maxTimeMS: 4_321 }],
      },
      { method: "findOne", args: [{ _id: "owner" }, { maxTimeMS: 4_321 }] },
    ]);
    expect(marker.stored()).toEqual({ _id: "owner", projectId: "prj_a", workspaceId: "wks_1", attachedAt: now });
  });

  it("leaves the marker of the same project as it was (re-attaching is fine)", async () => {
    const attachedAt = new Date("2025-05-05T05:05:05.000Z");
    const marker = fakeMarkerCollection({ _id: "owner", projectId: "prj_a", attachedAt });
    const owner = await claimMongoOwnership(marker.collection, { projectId: "prj_a", workspaceId: "wks_1" }, { remainingMs, now });
    expect(owner).toEqual({ projectId: "prj_a", attachedAt: attachedAt.toISOString() });
    expect(marker.stored()).toEqual({ _id: "owner", projectId: "prj_a", attachedAt });
  });

  it("refuses a database another project holds with conflict, without naming that project", async () => {
    const marker = fakeMarkerCollection({ _id: "owner", projectId: "prj_other_tenant", attachedAt: now });
    const error = await claimMongoOwnership(marker.collection, { projectId: "prj_b" }, { remainingMs, now }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("conflict");
    expect((error as AppError).status).toBe(409);
    expect((error as AppError).message).not.toContain("prj_other_tenant");
    expect(marker.stored()).toMatchObject({ projectId: "prj_other_tenant" });
  });

  it("takes over with a replace filtered on another project, upserting when there is no marker", async () => {
    const marker = fakeMarkerCollection({ _id: "owner", projectId: "prj_other_tenant", workspaceId: "wks_9", attachedAt: new Date(0) });
    const owner = await claimMongoOwnership(marker.collection, { projectId: "prj_b" }, { takeOver: true, remainingMs, now });
    expect(owner).toEqual({ projectId: "prj_b", attachedAt: now.toISOString() });
    expect(marker.calls[0]).toEqual({
      method: "replaceOne",
      args: [
        { _id: "owner", projectId: { $ne: "prj_b" } },
        { projectId: "prj_b", attachedAt: now },
        { upsert: true, maxTimeMS: 4_321 },
      ],
    });
    // The workspace of the previous owner does not survive the takeover.
    expect(marker.stored()).toEqual({ _id: "owner", projectId: "prj_b", attachedAt: now });

    const empty = fakeMarkerCollection();
    expect(await claimMongoOwnership(empty.collection, { projectId: "prj_c" }, { takeOver: true, remainingMs, now })).toEqual({
      projectId: "prj_c",
      attachedAt: now.toISOString(),
    });
  });

  it("treats takeOver of its own marker (the upsert's duplicate key) as a no-op", async () => {
    const attachedAt = new Date("2025-05-05T05:05:05.000Z");
    const marker = fakeMarkerCollection({ _id: "owner", projectId: "prj_a", attachedAt });
    expect(await claimMongoOwnership(marker.collection, { projectId: "prj_a" }, { takeOver: true, remainingMs, now })).toEqual({
      projectId: "prj_a",
      attachedAt: attachedAt.toISOString(),
    });
  });

  it("lets exactly one of two projects racing for an empty database win, also when the loser's upsert hits E11000", async () => {
    const marker = fakeMarkerCollection();
    const results = await Promise.allSettled([
      claimMongoOwnership(marker.collection, { projectId: "prj_a" }, { remainingMs, now }),
      claimMongoOwnership(marker.collection, { projectId: "prj_b" }, { remainingMs, now }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
    expect((rejected.reason as AppError).code).toBe("conflict");

    // The server may answer the losing upsert with a duplicate key error instead of a match.
    const racing = fakeMarkerCollection();
    const original = racing.collection.updateOne.bind(racing.collection);
    let first = true;
    racing.collection.updateOne = async (filter, update, options) => {
      if (first) {
        first = false;
        return original(filter, update, options);
      }
      throw Object.assign(new Error("E11000 duplicate key error"), { code: 11000 });
    };
    await claimMongoOwnership(racing.collection, { projectId: "prj_a" }, { remainingMs, now });
    await expect(claimMongoOwnership(racing.collection, { projectId: "prj_b" }, { remainingMs, now })).rejects.toMatchObject({ code: "conflict" });
  });

  it("passes other driver errors on, and checks the claim before any call", async () => {
    const marker = fakeMarkerCollection();
    marker.collection.updateOne = async () => {
      throw Object.assign(new Error("not authorized on shop"), { code: 13 });
    };
    await expect(claimMongoOwnership(marker.collection, { projectId: "prj_a" }, { remainingMs })).rejects.toMatchObject({ code: 13 });

    const untouched = fakeMarkerCollection();
    await expect(claimMongoOwnership(untouched.collection, { projectId: "../x" }, { remainingMs })).rejects.toMatchObject({ code: "validation_failed" });
    expect(untouched.calls).toEqual([]);
  });

  it("recognises the marker's commands, which metrics.queries leaves out", () => {
    expect(isOwnerMarkerCommand({ commandName: "update", command: { update: "_flowpoint", updates: [] } })).toBe(true);
    expect(isOwnerMarkerCommand({ commandName: "find", command: { find: "_flowpoint", filter: { _id: "owner" } } })).toBe(true);
    expect(isOwnerMarkerCommand({ commandName: "find", command: { find: "tickets" } })).toBe(false);
    expect(isOwnerMarkerCommand({ commandName: "ping", command: { ping: 1 } })).toBe(false);
  });
});

import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getConfig } from "@/lib/config";
import { ProjectRunSlots, type ProjectRunSlotsOptions, type RunSlot } from "./project-run-slots";

/** The per-project semaphore, its leases and their Lua, against real Redis (runs when REDIS_URL is set). */
const redisUrl = getConfig().REDIS_URL;
const suite = redisUrl ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A slot within `waitMs`, as a job's first wait takes one: a free one at once, else a place in line. */
async function take(slots: ProjectRunSlots, projectId: string, waitMs: number, recheckMs: number): Promise<RunSlot | null> {
  const slot = await slots.tryTake(projectId);
  if (slot) return slot;
  const line = slots.line(projectId, recheckMs);
  return (await line.next(waitMs)) ?? line.leave();
}

suite("project run slots", () => {
  let redis: Redis;
  const keyPrefix = `test-slots-${randomUUID()}:`;
  const opened: ProjectRunSlots[] = [];

  /** One worker's slots; every test's workers share the Redis semaphore, as separate processes would. */
  function worker(options: Omit<ProjectRunSlotsOptions, "redis" | "keyPrefix">): ProjectRunSlots {
    const slots = new ProjectRunSlots({ redis, keyPrefix, ...options });
    opened.push(slots);
    return slots;
  }

  const slotMembers = (projectId: string) => redis.zrange(`${keyPrefix}slots:${projectId}`, 0, -1);

  beforeAll(() => {
    redis = new Redis(redisUrl!);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((slots) => slots.close()));
  });

  afterAll(async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("grants at most `limit` slots per project across workers", async () => {
    const first = worker({ limit: 2 });
    const second = worker({ limit: 2 });
    const a = await first.tryTake("prj_a");
    const b = await second.tryTake("prj_a");
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(await first.tryTake("prj_a")).toBeNull();
    expect(await second.tryTake("prj_a")).toBeNull();
    // Another project has slots of its own.
    expect(await second.tryTake("prj_b")).not.toBeNull();
    expect(await slotMembers("prj_a")).toHaveLength(2);
  });

  it("hands a slot from run to run within a worker without giving it back to Redis", async () => {
    const slots = worker({ limit: 1, lingerMs: 1_000 });
    const first = await slots.tryTake("prj_c");
    expect(first).not.toBeNull();
    const [member] = await slotMembers("prj_c");
    // A second run of the project waits; the first one's end hands it the same slot.
    const waiting = take(slots, "prj_c", 1_000, 1_000);
    await sleep(20);
    slots.give(first!);
    const second = await waiting;
    expect(second?.member).toBe(member);
    // Given back with nobody waiting, the slot is kept a moment for the next run: still no Redis call.
    slots.give(second!);
    const third = await slots.tryTake("prj_c");
    expect(third?.member).toBe(member);
    expect(await slotMembers("prj_c")).toEqual([member]);
  });

  it("gives a slot no run wants back to Redis once it has lingered, and one kept too long to the other workers", async () => {
    // Lingering long enough that the other worker's ask comes within it, however slow Redis answers.
    const keeper = worker({ limit: 1, lingerMs: 300, handoffLimitMs: 100 });
    const other = worker({ limit: 1 });
    const slot = await keeper.tryTake("prj_d");
    keeper.give(slot!);
    expect(await other.tryTake("prj_d")).toBeNull();
    expect(keeper.heldCount("prj_d")).toBe(1);
    await vi.waitFor(async () => expect(await slotMembers("prj_d")).toEqual([]), { timeout: 5_000, interval: 20 });
    expect(keeper.heldCount("prj_d")).toBe(0);
    const taken = await other.tryTake("prj_d");
    expect(taken).not.toBeNull();
    other.give(taken!);

    // A worker whose runs keep wanting the slot hands it on only until its hand-off limit.
    const busy = worker({ limit: 1, lingerMs: 1_000, handoffLimitMs: 100 });
    const held = await take(busy, "prj_e", 100, 10);
    expect(held).not.toBeNull();
    await sleep(120);
    // In line at once (as a run is once its first ask was refused), so the slot cannot linger for it.
    const next = busy.line("prj_e", 10).next(500);
    busy.give(held!);
    // The waiting run got a slot, but a new one: the old one went back to Redis first.
    const fresh = await next;
    expect(fresh).not.toBeNull();
    expect(fresh!.member).not.toBe(held!.member);
  });

  it("says a waiting run is asking Redis while the slot its worker kept too long is on its way back", async () => {
    const slots = worker({ limit: 1, lingerMs: 1_000, handoffLimitMs: 50 });
    const held = await slots.tryTake("prj_returned");
    // A long recheck: only the give-back makes the run ask.
    const line = slots.line("prj_returned", 60_000);
    expect(line.asking()).toBe(false);
    await sleep(60);
    slots.give(held!);
    // The worker holds none of the project's slots now, but the run is about to get one.
    expect(slots.heldCount("prj_returned")).toBe(0);
    expect(line.asking()).toBe(true);
    const returned = await line.next(1_000);
    expect(returned).not.toBeNull();
    expect(returned!.member).not.toBe(held!.member);
    expect(line.asking()).toBe(false);
    expect(slots.heldCount("prj_returned")).toBe(1);
  });

  it("gives slots to waiting runs in the order they asked, however often they looked up in between", async () => {
    const slots = worker({ limit: 1, lingerMs: 1_000 });
    const held = await slots.tryTake("prj_order");
    const first = slots.line("prj_order", 5);
    // The first run looks up (its wait ends empty) while a second one joins the line behind it.
    expect(await first.next(20)).toBeNull();
    const second = slots.line("prj_order", 5);
    const secondSlot = second.next(1_000);
    slots.give(held!);
    const firstSlot = await first.next(1_000);
    expect(firstSlot?.member).toBe(held!.member);
    slots.give(firstSlot!);
    expect((await secondSlot)?.member).toBe(held!.member);
  });

  it("asks Redis nothing while its runs wait for slots it holds all of, and hands on a slot that reaches a run that left", async () => {
    const counted = new Redis(redisUrl!);
    let scripts = 0;
    const send = counted.sendCommand.bind(counted);
    counted.sendCommand = ((command: { name: string }) => {
      if (command.name === "evalsha" || command.name === "eval") scripts += 1;
      return send(command as Parameters<typeof send>[0]);
    }) as typeof counted.sendCommand;
    const slots = new ProjectRunSlots({ redis: counted, keyPrefix, limit: 2, lingerMs: 1_000 });
    opened.push(slots);
    try {
      const taken = [await slots.tryTake("prj_quiet"), await slots.tryTake("prj_quiet")];
      expect(taken.every(Boolean)).toBe(true);
      const before = scripts;
      const lines = [slots.line("prj_quiet", 5), slots.line("prj_quiet", 5), slots.line("prj_quiet", 5)];
      expect(await lines[0]!.next(60)).toBeNull();
      expect(scripts).toBe(before);
      // A run that leaves the line is skipped; one that leaves after a handover returns the slot, which goes on.
      expect(lines[1]!.leave()).toBeNull();
      slots.give(taken[0]!);
      const handed = lines[0]!.leave();
      expect(handed?.member).toBe(taken[0]!.member);
      slots.give(handed!);
      expect((await lines[2]!.next(100))?.member).toBe(taken[0]!.member);
      expect(scripts).toBe(before);
    } finally {
      await slots.close();
      counted.disconnect();
    }
  });

  it("gives the first in a worker's line a slot another worker freed, in the order its runs asked", async () => {
    const holder = worker({ limit: 2, lingerMs: 20 });
    const waiting = worker({ limit: 2 });
    const held = [await holder.tryTake("prj_shared"), await holder.tryTake("prj_shared")];
    const lines = [waiting.line("prj_shared", 5), waiting.line("prj_shared", 5), waiting.line("prj_shared", 5)];
    const slots = lines.map((line) => line.next(1_000));
    // Nobody waits in the holder: the slot lingers 20 ms, goes back to Redis, and the first in the other line takes it.
    holder.give(held[0]!);
    const first = await slots[0]!;
    expect(first).not.toBeNull();
    expect(waiting.heldCount("prj_shared")).toBe(1);
    // Handed on within the waiting worker, to the second in line, before the third.
    waiting.give(first!);
    expect((await slots[1]!)?.member).toBe(first!.member);
    holder.give(held[1]!);
    expect(await slots[2]!).not.toBeNull();
    expect(await slotMembers("prj_shared")).toHaveLength(2);
  });

  it("frees the slots of a worker that died once their lease lapses, and renews the slots of one that lives", async () => {
    // Leases of 1 s, renewed every third of it: a renewal would have to be over 650 ms late (the
    // event loop stalled by other test files on a busy machine) for the living worker to lose its slot.
    const dead = worker({ limit: 1, leaseTtlMs: 1_000 });
    const alive = worker({ limit: 1, leaseTtlMs: 1_000 });
    expect(await dead.tryTake("prj_f")).not.toBeNull();
    dead.abandon();
    expect(await alive.tryTake("prj_f")).toBeNull();
    await sleep(1_200);
    const slot = await alive.tryTake("prj_f");
    expect(slot).not.toBeNull();
    // Held past several lease periods: still its, because it is renewed.
    await sleep(2_500);
    expect(await worker({ limit: 1 }).tryTake("prj_f")).toBeNull();
    expect(await slotMembers("prj_f")).toEqual([slot!.member]);
  });

  it("gives every held slot back when the worker closes", async () => {
    const slots = worker({ limit: 3, lingerMs: 10_000 });
    const taken = await Promise.all([slots.tryTake("prj_g"), slots.tryTake("prj_g")]);
    slots.give(taken[0]!);
    expect(await slotMembers("prj_g")).toHaveLength(2);
    await slots.close();
    expect(await slotMembers("prj_g")).toEqual([]);
  });
});

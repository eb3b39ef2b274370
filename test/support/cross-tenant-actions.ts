import { expect, test } from "vitest";
import { closeAutomationQueue } from "@/lib/automations/queue/get-automation-queue";
import { closePlatformDb } from "@/lib/platform-db/client";
import { closeAllRecordStores } from "@/lib/records/get-record-store";

/**
 * The sweep of the tenant-isolation suites of the dashboard's server actions
 * (test/*-actions.security.test.ts): user B calls every action of a file with user A's ids.
 */
export interface CrossTenantSweep<Actions extends Record<string, unknown>, Tenants> {
  /** The action file's exports. */
  actions: Actions;
  /**
   * Each action, and every argument list B tries with A's ids: a static table (read by
   * test/server-actions-inventory.test.ts) whose entries are functions of the file's tenants.
   */
  cases: Record<keyof Actions, (tenants: Tenants) => unknown[][]>;
  /** Asserts that one answer is a refusal that reveals nothing of A's. */
  expectRefused(tenants: Tenants, result: unknown, label: string): void;
  /** What the calls must leave as it was: A's data and B's, each read as text. */
  snapshots(tenants: Tenants): Array<Promise<string>>;
}

/**
 * The action suites' `test`: `tenants`, made by `makeTenants` on first use (the session then B's),
 * and what the actions opened closed when the file ends: the automation queue (record events queue
 * runs), customer databases, the platform database.
 */
export function crossTenantTest<Tenants>(makeTenants: () => Promise<Tenants>) {
  return test.extend("tenants", { scope: "file" }, async ({}, { onCleanup }) => {
    onCleanup(async () => {
      await closeAutomationQueue(5_000);
      await closeAllRecordStores();
      await closePlatformDb();
    });
    return makeTenants();
  });
}

/**
 * The sweep's two tests: the cases name every action the file exports, and only those; every call
 * of the cases is refused, and nothing the snapshots read changes. The tenants are made under the
 * hook timeout, not the first test's.
 */
export function itSweepsEveryAction<Actions extends Record<string, unknown>, Tenants>(
  it: ReturnType<typeof crossTenantTest<Tenants>>,
  sweep: CrossTenantSweep<Actions, Tenants>,
): void {
  it.beforeAll(({ tenants }) => void tenants);

  it("covers every action the file exports", () => {
    expect(Object.keys(sweep.cases).sort()).toEqual(Object.keys(sweep.actions).sort());
  });

  it("refuse every call with another workspace's ids, reveal nothing and change nothing", async ({ tenants }) => {
    const before = await Promise.all(sweep.snapshots(tenants));
    for (const [name, calls] of Object.entries(sweep.cases) as Array<[string, (tenants: Tenants) => unknown[][]]>) {
      const action = sweep.actions[name] as (...args: unknown[]) => Promise<unknown>;
      for (const args of calls(tenants)) {
        const label = `${name}(${args.map((arg) => JSON.stringify(arg)).join(", ")})`;
        sweep.expectRefused(tenants, await action(...args), label);
      }
    }
    expect(await Promise.all(sweep.snapshots(tenants))).toEqual(before);
  });
}

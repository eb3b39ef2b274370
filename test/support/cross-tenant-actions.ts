import { expect, it } from "vitest";
import { closeAutomationQueue } from "@/lib/automations/queue/get-automation-queue";
import { closePlatformDb } from "@/lib/platform-db/client";
import { closeAllRecordStores } from "@/lib/records/get-record-store";

/**
 * The sweep of the tenant-isolation suites of the dashboard's server actions
 * (test/*-actions.security.test.ts): user B calls every action of a file with user A's ids.
 */
export interface CrossTenantSweep<Actions extends Record<string, unknown>> {
  /** The action file's exports. */
  actions: Actions;
  /** Each action, and every argument list B tries with A's ids. */
  cases: Record<keyof Actions, () => unknown[][]>;
  /** Asserts that one answer is a refusal that reveals nothing of A's. */
  expectRefused(result: unknown, label: string): void;
  /** What the calls must leave as it was: A's data and B's, each read as text. */
  snapshots: Array<() => Promise<string>>;
}

/**
 * The sweep's two tests: the cases name every action the file exports, and only those; every call
 * of the cases is refused, and nothing the snapshots read changes. `sweep` is read when they run,
 * after the file's set-up made the tenants.
 */
export function itSweepsEveryAction<Actions extends Record<string, unknown>>(sweep: () => CrossTenantSweep<Actions>): void {
  it("covers every action the file exports", () => {
    const { actions, cases } = sweep();
    expect(Object.keys(cases).sort()).toEqual(Object.keys(actions).sort());
  });

  it("refuse every call with another workspace's ids, reveal nothing and change nothing", async () => {
    const { actions, cases, expectRefused, snapshots } = sweep();
    const before = await Promise.all(snapshots.map((snapshot) => snapshot()));
    for (const [name, calls] of Object.entries(cases) as Array<[string, () => unknown[][]]>) {
      const action = actions[name] as (...args: unknown[]) => Promise<unknown>;
      for (const args of calls()) {
        const label = `${name}(${args.map((arg) => JSON.stringify(arg)).join(", ")})`;
        expectRefused(await action(...args), label);
      }
    }
    expect(await Promise.all(snapshots.map((snapshot) => snapshot()))).toEqual(before);
  });
}

/** What the actions opened: the automation queue (record events queue runs), customer databases, the platform database. */
export async function closeActionSuiteResources(): Promise<void> {
  await closeAutomationQueue(5_000);
  await closeAllRecordStores();
  await closePlatformDb();
}

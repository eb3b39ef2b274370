import { describe, expect } from "vitest";
import { postgresBinariesAvailable, startPrivatePostgres } from "@/test/support/fault-processes";
import { setProcessEnv } from "@/test/support/process-env";
import { createProjectFixture } from "@/test/fixtures";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * The platform database (workspaces, projects, endpoints: configuration) out of reach. The
 * management API answers 503 `unavailable`, which tells a caller to try again, instead of a 500 that
 * reads as a bug; the answer holds none of the driver's words; once the database is back the same
 * call answers as before. Endpoint calls go on answering from the project's cached runtime
 * meanwhile. On a PostgreSQL cluster of this file's own: the shared server is never stopped.
 */
const it = routeTest
  .extend("platform", { scope: "file" }, async ({}, { onCleanup }) => {
    const postgres = await startPrivatePostgres();
    const restoreEnv = setProcessEnv({ DATABASE_URL: postgres.url });
    onCleanup(() => {
      restoreEnv();
      postgres.dispose();
    });
    return postgres;
  })
  // The project and its owner are made in that platform database, after it is the app's.
  .extend("api", { scope: "file" }, async ({ platform, server }) => {
    void platform;
    return projectApi(server, await createProjectFixture("Platform database down"));
  });

describe.skipIf(!postgresBinariesAvailable())("the platform database out of reach", () => {
  it("answers 503 unavailable without the driver's words while it is down, and as before once it is back", async ({ platform, api }) => {
    const created = await api.call("POST", "/endpoints", { name: "Hello", method: "GET", slug: "hello", response: { body: '{"hello": "{{query.name}}"}' } });
    expect(created.status, created.text).toBe(201);
    expect(await (await api.invoke("hello", {}, "?name=before")).json()).toEqual({ hello: "before" });
    const before = await api.call<unknown[]>("GET", "/endpoints");
    expect(before.status, before.text).toBe(200);

    platform.stopImmediate();
    // Endpoint calls answer from the project's cached runtime meanwhile (their records are in the customer database).
    const invoked = await api.invoke("hello", {}, "?name=down");
    expect(invoked.status).toBe(200);
    expect(await invoked.json()).toEqual({ hello: "down" });
    const down = await api.call("GET", "/endpoints");
    expect(down.status, down.text).toBe(503);
    expect(down.body).toEqual({ error: "the service is temporarily unavailable: please try again shortly", code: "unavailable" });
    expect(down.headers.get("x-request-id")).toMatch(/^req_/);
    expect(down.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres|select/i);

    await platform.start();
    const after = await api.call<unknown[]>("GET", "/endpoints");
    expect(after.status, after.text).toBe(200);
    expect(after.body).toEqual(before.body);
  });
});

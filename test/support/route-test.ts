import { test } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { createProjectFixture } from "@/test/fixtures";
import { startRouteServer } from "@/test/http-harness";
import { projectApi } from "@/test/support/project-api";

/**
 * The route tests' `test`, with fixtures made on first use and kept for the file (`test.extend`, in
 * place of module-level `let` + `beforeAll`): `server`, the route harness (it, the customer
 * databases and the platform database close when the file ends); `project`, a project with its
 * owner; `ownerApi`, the typed client for that project calling as the owner's dashboard session. A
 * file adds its own with `routeTest.extend(name, { scope: "file" }, …)`.
 */
function routeTestOn(serverOptions: { allowExternal?: boolean }) {
  return test
    .extend("server", { scope: "file" }, async ({}, { onCleanup }) => {
      const server = await startRouteServer(serverOptions);
      onCleanup(async () => {
        await server.close();
        await closeAllRecordStores();
        await closePlatformDb();
      });
      return server;
    })
    .extend("project", { scope: "file" }, () => createProjectFixture())
    .extend("ownerApi", { scope: "file" }, ({ server, project }) => projectApi(server, project));
}

export const routeTest = routeTestOn({});

/**
 * routeTest for the invocation suites that also run against `next start` in serverless mode
 * (scripts/test-serverless.sh sets ROUTE_TEST_BASE_URL): `server` is then the app running there.
 */
export const externalRouteTest = routeTestOn({ allowExternal: true });

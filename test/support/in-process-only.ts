import { describe, it, type TestAPI, type TestFunction } from "vitest";
import { externalRouteServerUrl } from "@/test/support/external-route-server";

/**
 * Tests that cannot apply to an external server (ROUTE_TEST_BASE_URL): they call code in this
 * process, or start, restart or inspect a server of their own. Skipped there, with the reason in
 * the title, so the serverless run's report says what it did not prove.
 */
export function itInProcess(reason: string, title: string, fn: TestFunction): void;
/** The same with the fixtures of `test` (routeTest, say). */
export function itInProcess<Context extends object>(reason: string, title: string, fn: TestFunction<Context>, test: TestAPI<Context>): void;
export function itInProcess(reason: string, title: string, fn: TestFunction, test: TestAPI = it): void {
  if (externalRouteServerUrl) test.skip(`${title} [skipped against ${externalRouteServerUrl}: ${reason}]`, fn);
  else test(title, fn);
}

/** `describe` for a group of such tests. */
export function describeInProcess(reason: string, title: string, fn: () => void): void {
  if (externalRouteServerUrl) describe.skip(`${title} [skipped against ${externalRouteServerUrl}: ${reason}]`, fn);
  else describe(title, fn);
}

/**
 * `ROUTE_TEST_BASE_URL`: the origin of an app that is already running (scripts/test-serverless.sh
 * starts `next start` in serverless mode) over the same DATABASE_URL, REDIS_URL, KV_KEY_PREFIX and
 * secrets as the tests, which seed through the services in their own process. Only suites that opt
 * in (`startRouteServer({ allowExternal: true })`) run against it.
 */
export const externalRouteServerUrl = process.env.ROUTE_TEST_BASE_URL?.replace(/\/+$/, "") || null;

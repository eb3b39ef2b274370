import { vi } from "vitest";

/**
 * The session the dashboard's server actions read in tests: the cookie of whichever user the test
 * acts as. A test file mocks Next's request modules with these (vi.mock is hoisted, so it imports
 * them inside the factory) and sets `dashboardSession.cookie`:
 *
 *   vi.mock("next/headers", async () => (await import("@/test/support/dashboard-session")).nextHeadersModule());
 *   vi.mock("next/cache", async () => (await import("@/test/support/dashboard-session")).nextCacheModule());
 */
export const dashboardSession = { cookie: "" };

export function nextHeadersModule() {
  return {
    cookies: async () => {
      const pairs = new Map(dashboardSession.cookie ? [dashboardSession.cookie.split(/=(.*)/s).slice(0, 2) as [string, string]] : []);
      return { get: (name: string) => (pairs.has(name) ? { name, value: pairs.get(name)! } : undefined) };
    },
    headers: async () => new Headers(),
  };
}

/** Outside a request there is no router cache to refresh. */
export function nextCacheModule() {
  return { refresh: vi.fn(), revalidatePath: vi.fn(), revalidateTag: vi.fn() };
}

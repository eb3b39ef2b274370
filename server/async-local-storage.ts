/**
 * Imported first by the processes we start ourselves (server/start.ts, scripts/worker.ts): Next's
 * request-scoped APIs (`after`, used by lib/http/after-response.ts) read AsyncLocalStorage from
 * globalThis, which Next itself only provides once `next()` has loaded — after our imports.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const scope = globalThis as typeof globalThis & { AsyncLocalStorage?: typeof AsyncLocalStorage };
scope.AsyncLocalStorage ??= AsyncLocalStorage;

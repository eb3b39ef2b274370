import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { invokeEndpoint } from "@/lib/endpoints/invoke/invoke-endpoint";
import { INVOCATION_PATH } from "@/lib/http/invocation-origin";
import { markSocketIp } from "@/lib/http/client-ip";
import { SERVER_KEEP_ALIVE_MS } from "@/lib/http/keep-alive";
import { settleAfterResponseWork, trackAfterResponse } from "@/lib/http/after-response";
import { adapterResponseClass } from "@/server/adapter-response";
import { closeAutomationQueue } from "@/lib/automations/queue/get-automation-queue";
import { externalRouteServerUrl } from "@/test/support/external-route-server";

/**
 * Serves the App Router's route handlers (app/api/** /route.ts) over real HTTP on loopback, without a
 * Next build: each request is matched against the file-system routes and handed to the module's
 * exported method, exactly as Next calls it (`(request, { params: Promise })`). Invocation paths go
 * to the invocation Fetch handler exactly as the production server routes them, with the same
 * client-IP header and tracked after-response work (`drain()` waits for execution logs). With
 * ROUTE_TEST_BASE_URL, suites that allow it call an app running elsewhere instead (startRouteServer).
 */
type RouteModule = Partial<Record<string, (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>>>;

export interface DiscoveredRoute {
  file: string;
  /** `/api/projects/[projectId]/api-keys/[keyId]` */
  pattern: string;
  segments: string[];
  methods: string[];
}

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];

function findRouteFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...findRouteFiles(full));
    else if (entry === "route.ts") found.push(full);
  }
  return found;
}

export async function discoverRoutes(root = path.resolve("app", "api")): Promise<Array<DiscoveredRoute & { handlers: RouteModule }>> {
  const routes = [];
  for (const file of findRouteFiles(root)) {
    const relative = path.relative(path.resolve("app"), path.dirname(file)).split(path.sep);
    const segments = relative.filter((segment) => !/^\(.*\)$/.test(segment));
    const handlers = (await import(file)) as RouteModule;
    routes.push({ file, pattern: `/${segments.join("/")}`, segments, methods: HTTP_METHODS.filter((m) => typeof handlers[m] === "function"), handlers });
  }
  // Static segments win over dynamic ones, as in Next.
  return routes.sort((a, b) => b.segments.filter((s) => !s.startsWith("[")).length - a.segments.filter((s) => !s.startsWith("[")).length);
}

function matchRoute(segments: string[], pathname: string): Record<string, string | string[]> | null {
  const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const catchAll = /^\[\.\.\.(\w+)\]$/.exec(segment);
    if (catchAll) {
      if (i >= parts.length) return null;
      params[catchAll[1]!] = parts.slice(i);
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    const dynamic = /^\[(\w+)\]$/.exec(segment);
    if (dynamic) params[dynamic[1]!] = part;
    else if (segment !== part) return null;
  }
  return parts.length === segments.length ? params : null;
}

export interface RouteServer {
  url: string;
  /** The routes served; empty against an external server, whose modules are not loaded here. */
  routes: DiscoveredRoute[];
  /** True when the suite calls an already running app (ROUTE_TEST_BASE_URL) rather than this process. */
  external: boolean;
  /** Waits for work scheduled after responses (execution logs, webhook deliveries) in this process. */
  drain(): Promise<void>;
  /**
   * Reads what work after a response writes (an execution log): once after drain() here; against an
   * external server, whose after() work runs in its own process, again until `ready` or 10 s pass.
   */
  afterWork<T>(read: () => Promise<T>, ready: (value: T) => boolean): Promise<T>;
  close(): Promise<void>;
}

async function pollAfterWork<T>(read: () => Promise<T>, ready: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ready(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The route server of a suite: this process's harness, or with `allowExternal` and
 * ROUTE_TEST_BASE_URL set, the app running there. A suite that has not opted in refuses to run
 * against an external server rather than test this process while claiming otherwise.
 */
export async function startRouteServer(options: { allowExternal?: boolean } = {}): Promise<RouteServer> {
  if (externalRouteServerUrl) {
    if (!options.allowExternal) {
      throw new Error(`ROUTE_TEST_BASE_URL is set, and this suite serves its routes in process: run it without ROUTE_TEST_BASE_URL`);
    }
    return {
      url: externalRouteServerUrl,
      routes: [],
      external: true,
      drain: () => Promise.reject(new Error("drain() cannot wait for work in another process: read what it writes through afterWork()")),
      afterWork: pollAfterWork,
      close: async () => undefined,
    };
  }
  const routes = await discoverRoutes();
  const invocationHooks = { waitUntil: trackAfterResponse, Response: adapterResponseClass() };
  const listener = getRequestListener(
    async (request: Request) => {
      const { pathname } = new URL(request.url);
      if (INVOCATION_PATH.test(pathname)) return invokeEndpoint(request, invocationHooks);
      for (const route of routes) {
        const params = matchRoute(route.segments, pathname);
        if (!params) continue;
        const handler = route.handlers[request.method];
        if (!handler) return new Response(null, { status: 405 });
        return handler(request, { params: Promise.resolve(params) });
      }
      return new Response(null, { status: 404 });
    },
    { overrideGlobalObjects: false },
  );
  const server: Server = createServer((req, res) => {
    markSocketIp(req.headers, req.socket.remoteAddress);
    void listener(req, res);
  });
  // As the app's server (server/start.ts); see keep-alive.ts for why it is not Node's default.
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routes: routes.map(({ handlers: _handlers, ...route }) => route),
    external: false,
    drain: async () => {
      await settleAfterResponseWork();
    },
    afterWork: async (read) => {
      await settleAfterResponseWork();
      return read();
    },
    close: async () => {
      await settleAfterResponseWork();
      // The automation queue's worker (BullMQ connections, in-process runs) stops with the server.
      await closeAutomationQueue();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

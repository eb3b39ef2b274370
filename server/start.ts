/**
 * `npm start` (and `npm run dev` with --dev): one Node process. Migrations first (a failure stops
 * start-up with a clear message); then invocation paths (/api/projects/<id>/fn/<slug>) and records API
 * calls with an API key are served straight from Fetch handlers through a Node HTTP adapter, the build's scripts and
 * stylesheets from their brotli copies (server/serve-precompressed-asset.ts), and every other path goes to Next's
 * request handler; with INVOCATION_URL, its host serves only the public paths (server/route-request.ts).
 * Work after responses is tracked (lib/http/after-response.ts) and drained on shutdown.
 */
// First: what Next's request-scoped APIs need before any module that uses them loads.
import "@/server/async-local-storage";
import http from "node:http";
import { join } from "node:path";
import next from "next";
import { getRequestListener } from "@hono/node-server";
import { getConfig } from "@/lib/config";
import { invokeEndpoint } from "@/lib/endpoints/invoke/invoke-endpoint";
import { configuredInvocationHost } from "@/lib/http/invocation-origin";
import { closePlatformDb, migratePlatformDb } from "@/lib/platform-db/client";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { closeKv } from "@/lib/kv/get-kv";
import { pendingAfterResponseWork, settleAfterResponseWork, trackAfterResponse } from "@/lib/http/after-response";
import { declareSocketIpServer } from "@/lib/http/client-ip";
import { SERVER_KEEP_ALIVE_MS } from "@/lib/http/keep-alive";
import { startAutomationWork } from "@/lib/automations/start-automation-work";
import { adapterResponseClass } from "./adapter-response";
import { createRecordsApiHandler } from "./records-api";
import { createPrecompressedAssetHandler } from "./serve-precompressed-asset";
import { createRequestRouter } from "./route-request";

async function main(): Promise<void> {
  const dev = process.argv.includes("--dev");
  // `npm start` is production unless told otherwise: secrets are then required (lib/config.ts).
  if (!dev && !process.env.NODE_ENV) Object.assign(process.env, { NODE_ENV: "production" });
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  const config = getConfig();
  // Before Next loads instrumentation.ts, whose start-up log reports where client IPs come from.
  declareSocketIpServer();
  await migratePlatformDb();
  process.env.NEXTAUTH_URL ??= `http://localhost:${config.PORT}`;

  const app = next({ dev, dir: process.cwd(), port: config.PORT, hostname: "localhost" });
  await app.prepare();
  const handleNext = app.getRequestHandler();
  // Next's route handlers need the real global Request/Response: leave the globals alone, and hand
  // the adapter's own Response class to the invocation handler and the records fast path only.
  const lightweightResponse = adapterResponseClass();
  const hooks = { waitUntil: trackAfterResponse, Response: lightweightResponse };
  const handleInvocation = getRequestListener((request: Request) => invokeEndpoint(request, hooks), {
    overrideGlobalObjects: false,
  });
  const handleRecordsApi = getRequestListener(createRecordsApiHandler(lightweightResponse), { overrideGlobalObjects: false });
  const handleStaticAsset = dev ? undefined : await createPrecompressedAssetHandler(join(process.cwd(), ".next", "static"));

  // Every instance works the automation queue and queues schedules (unless AUTOMATION_WORKER=off).
  const stopAutomationWork = startAutomationWork();

  const server = http.createServer(createRequestRouter({ handleInvocation, handleRecordsApi, handleNext, handleStaticAsset, invocationHost: configuredInvocationHost() }));
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
  server.listen(config.PORT, () => console.log(`Flowpoint ${dev ? "(development) " : ""}listening on http://localhost:${config.PORT}`));

  let closing = false;
  const shutdown = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    server.close();
    server.closeIdleConnections();
    // Runs in progress finish (their jobs are re-run elsewhere if they cannot); no new ones start.
    await stopAutomationWork();
    // Execution logs, webhook deliveries and mails of both the fast path and Next's handlers.
    if (!(await settleAfterResponseWork())) console.error(`[server] shutting down with ${pendingAfterResponseWork()} after-response tasks unfinished`);
    await Promise.allSettled([closeAllRecordStores(), closeKv(), app.close()]);
    await closePlatformDb();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

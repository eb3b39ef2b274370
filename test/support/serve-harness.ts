/**
 * Starts the route harness (route handlers + invocation fast path) in its own process and prints
 * `READY <url>`: the two-instance tests run two of these against one PostgreSQL and one Redis.
 */
import { startRouteServer } from "@/test/http-harness";

const server = await startRouteServer();
process.stdout.write(`READY ${server.url}\n`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());

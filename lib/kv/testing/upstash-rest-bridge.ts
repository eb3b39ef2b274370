import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis as IORedis } from "ioredis";
import { SERVER_KEEP_ALIVE_MS } from "@/lib/http/keep-alive";
import { LuaScriptRewriter, normalizeRedisReply, parseRedisCommand, type RedisCommand } from "@/lib/kv/redis/lua-script-rewriter";

/**
 * A loopback server that speaks the Upstash REST protocol and forwards to a real Redis, so the
 * Upstash adapter is tested against real Redis semantics:
 * - POST /            body ["SET","k","v"]          → {"result": …} or 400 {"error": …}
 * - POST /pipeline    body [["GET","a"],["INCR","b"]] → [{"result": …}, {"error": …}]
 * - POST /multi-exec  the same, in MULTI/EXEC
 * - `Authorization: Bearer <token>` (401 otherwise); with `Upstash-Encoding: base64` every string in a
 *   result except "OK" is base64 (UTF-8) encoded, as Upstash does.
 * Like Upstash it accepts the `allow-key-locking` script flag (rewritten for plain Redis).
 */
export interface UpstashRestBridge {
  url: string;
  token: string;
  /** Requests served, so tests can count round trips. */
  readonly requests: number;
  close(): Promise<void>;
}

const REFUSED_COMMANDS = new Set(["subscribe", "psubscribe", "ssubscribe", "monitor", "select", "quit", "reset", "sync", "psync"]);
const MAX_BODY_BYTES = 10 * 1024 * 1024;

function encodeResult(value: unknown, base64: boolean): unknown {
  if (!base64) return value;
  if (typeof value === "string") return value === "OK" ? value : Buffer.from(value, "utf8").toString("base64");
  if (Array.isArray(value)) return value.map((item) => encodeResult(item, base64));
  return value;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RangeError("request body too large");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

function checkAllowed(command: RedisCommand): RedisCommand {
  if (REFUSED_COMMANDS.has(command[0].toLowerCase())) throw new TypeError(`ERR command ${command[0]} is not available over REST`);
  return command;
}

export async function startUpstashRestBridge(options: { redisUrl: string; token?: string }): Promise<UpstashRestBridge> {
  const token = options.token ?? `bridge-${Math.random().toString(36).slice(2)}`;
  const redis = new IORedis(options.redisUrl, { maxRetriesPerRequest: 1 });
  redis.on("error", () => undefined);
  const scripts = new LuaScriptRewriter();
  let requests = 0;

  async function runOne(command: RedisCommand): Promise<unknown> {
    const [name, ...args] = scripts.rewriteCommand(checkAllowed(command));
    return normalizeRedisReply(await redis.call(name, ...args));
  }

  async function runBatch(commands: RedisCommand[], atomic: boolean): Promise<Array<{ result: unknown } | { error: string }>> {
    const pipeline = atomic ? redis.multi() : redis.pipeline();
    for (const command of commands) {
      const [name, ...args] = scripts.rewriteCommand(checkAllowed(command));
      pipeline.call(name, ...args);
    }
    const replies = (await pipeline.exec()) ?? [];
    return replies.map(([error, result]) => (error ? { error: error.message } : { result: normalizeRedisReply(result) }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    requests += 1;
    if (req.method !== "POST") return sendJson(res, 405, { error: "only POST is supported" });
    if (req.headers.authorization !== `Bearer ${token}`) return sendJson(res, 401, { error: "Unauthorized" });
    const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
    const path = (req.url ?? "/").split("?")[0];
    let body: unknown;
    try {
      body = await readJson(req);
    } catch {
      return sendJson(res, 400, { error: "ERR request body is not valid JSON" });
    }
    try {
      if (path === "/" || path === "") {
        return sendJson(res, 200, { result: encodeResult(await runOne(parseRedisCommand(body)), base64) });
      }
      if (path === "/pipeline" || path === "/multi-exec") {
        if (!Array.isArray(body)) return sendJson(res, 400, { error: "ERR a pipeline is an array of commands" });
        const replies = await runBatch(body.map(parseRedisCommand), path === "/multi-exec");
        return sendJson(
          res,
          200,
          replies.map((reply) => ("result" in reply ? { result: encodeResult(reply.result, base64) } : reply)),
        );
      }
      return sendJson(res, 404, { error: `ERR unknown path ${path}` });
    } catch (error) {
      return sendJson(res, 400, { error: error instanceof Error ? error.message : "ERR unknown error" });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: "bridge failure" });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    get requests() {
      return requests;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}

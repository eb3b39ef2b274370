import type { Redis as IORedis } from "ioredis";
import type { Requester, UpstashRequest, UpstashResponse } from "@upstash/redis";
import { KvUnavailableError } from "@/lib/kv/internal/backend-guard";
import { LuaScriptRewriter, normalizeRedisReply, parseRedisCommand, type RedisCommand } from "@/lib/kv/redis/lua-script-rewriter";

/** Connection states in which a command is sure to wait or fail: fail at once instead. */
const DOWN_STATES = new Set(["reconnecting", "close", "end"]);

/** Fails at once, as unavailable, while the connection is down, instead of queueing the command. */
export function assertRedisConnectable(client: IORedis): void {
  if (DOWN_STATES.has(client.status)) {
    throw new KvUnavailableError(`redis connection is ${client.status}`);
  }
}

function isReplyError(error: unknown): error is Error {
  return error instanceof Error && error.name === "ReplyError";
}

/**
 * A requester for @upstash/redis that sends commands over a TCP connection (ioredis) instead of
 * the Upstash REST API, so @upstash/ratelimit runs unchanged against plain Redis. It answers the
 * REST shapes: `{result}` / `{error}` for a command, an array of them for /pipeline and /multi-exec.
 * Scripts go through LuaScriptRewriter (Upstash-only shebang flags) and replies through
 * normalizeRedisReply (nil → null, HGETALL object → flat array).
 */
export class IoredisRequester implements Requester {
  readYourWrites = false;
  private readonly scripts = new LuaScriptRewriter();

  constructor(private readonly client: IORedis) {}

  async request<TResult = unknown>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
    const route = req.path?.join("/") ?? "";
    if (route === "pipeline" || route === "multi-exec") {
      const commands = Array.isArray(req.body) ? req.body.map(parseRedisCommand) : [];
      return (await this.batch(commands, route === "multi-exec")) as unknown as UpstashResponse<TResult>;
    }
    if (route !== "") throw new TypeError(`unsupported request path /${route}`);
    try {
      return { result: (await this.send(parseRedisCommand(req.body))) as TResult };
    } catch (error) {
      if (isReplyError(error)) return { error: error.message };
      throw error;
    }
  }

  /** Sends one command and answers the normalized reply; a Redis error reply rejects (ReplyError). */
  async send(command: RedisCommand): Promise<unknown> {
    this.assertConnectable();
    const [name, ...args] = this.scripts.rewriteCommand(command);
    return normalizeRedisReply(await this.client.call(name, ...args));
  }

  private async batch(commands: RedisCommand[], atomic: boolean): Promise<UpstashResponse<unknown>[]> {
    this.assertConnectable();
    const pipeline = atomic ? this.client.multi() : this.client.pipeline();
    for (const command of commands) {
      const [name, ...args] = this.scripts.rewriteCommand(command);
      pipeline.call(name, ...args);
    }
    const replies = (await pipeline.exec()) ?? [];
    return replies.map(([error, result]) => (error ? { error: error.message } : { result: normalizeRedisReply(result) }));
  }

  private assertConnectable(): void {
    assertRedisConnectable(this.client);
  }
}

import { createHash } from "node:crypto";
import { BoundedMap } from "@/lib/kv/internal/bounded-map";

/** Shebang flags Upstash accepts and plain Redis refuses ("Unexpected flag in script shebang"). */
const UPSTASH_ONLY_FLAGS = new Set(["allow-key-locking"]);

export type RedisCommand = [string, ...(string | number)[]];

function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/**
 * Answers a script plain Redis accepts: Upstash-only shebang flags are dropped, and a shebang left
 * without flags is dropped too (a flagless shebang would change Redis 7's defaults for the script).
 * The shebang line becomes an empty line so error line numbers stay the same.
 */
export function stripUpstashOnlyFlags(script: string): string {
  const shebang = /^#!lua([^\n]*)/.exec(script);
  if (!shebang) return script;
  const settings = (shebang[1] ?? "").trim().split(/\s+/).filter(Boolean);
  let changed = false;
  const kept = settings.flatMap((setting) => {
    if (!setting.startsWith("flags=")) return [setting];
    const flags = setting.slice("flags=".length).split(",").filter(Boolean);
    const allowed = flags.filter((flag) => !UPSTASH_ONLY_FLAGS.has(flag));
    if (allowed.length === flags.length) return [setting];
    changed = true;
    return allowed.length > 0 ? [`flags=${allowed.join(",")}`] : [];
  });
  if (!changed) return script;
  const rest = script.slice(shebang[0].length);
  return kept.length > 0 ? `#!lua ${kept.join(" ")}${rest}` : rest;
}

/**
 * Rewrites EVAL / EVALSHA / SCRIPT LOAD so scripts written for Upstash run on plain Redis. Clients
 * (@upstash/ratelimit) address scripts by the SHA-1 of the text they hold; Redis caches the rewritten
 * text under another SHA-1, so the mapping learnt at EVAL time turns the next EVALSHA into one round
 * trip. An unknown SHA is passed through: Redis answers NOSCRIPT and the client falls back to EVAL.
 */
export class LuaScriptRewriter {
  private readonly rewrittenShaByOriginal = new BoundedMap<string, string>(1000);

  rewriteCommand(command: RedisCommand): RedisCommand {
    const [name, first, ...rest] = command;
    const lowerName = name.toLowerCase();
    if ((lowerName === "eval" || lowerName === "eval_ro") && typeof first === "string") {
      return [name, this.rewriteScript(first), ...rest];
    }
    if ((lowerName === "evalsha" || lowerName === "evalsha_ro") && typeof first === "string") {
      return [name, this.rewrittenShaByOriginal.get(first.toLowerCase()) ?? first, ...rest];
    }
    if (lowerName === "script" && typeof first === "string" && first.toLowerCase() === "load" && typeof rest[0] === "string") {
      return [name, first, this.rewriteScript(rest[0])];
    }
    return command;
  }

  private rewriteScript(script: string): string {
    const rewritten = stripUpstashOnlyFlags(script);
    if (rewritten !== script) this.rewrittenShaByOriginal.set(sha1(script), sha1(rewritten));
    return rewritten;
  }
}

/** Checks a command array as @upstash/redis sends it (strings, numbers, booleans) and types it. */
export function parseRedisCommand(body: unknown): RedisCommand {
  if (!Array.isArray(body) || body.length === 0 || typeof body[0] !== "string") {
    throw new TypeError("a command is a non-empty array starting with its name");
  }
  const [name, ...args] = body as unknown[];
  return [
    name as string,
    ...args.map((arg) => {
      if (typeof arg === "string" || typeof arg === "number") return arg;
      if (typeof arg === "boolean") return String(arg);
      throw new TypeError("command arguments are strings, numbers or booleans");
    }),
  ];
}

/**
 * Turns an ioredis reply into the JSON shape the Upstash REST API answers: nil is null (never
 * undefined: @upstash/redis treats undefined as "no result"), buffers are UTF-8 strings, and replies
 * ioredis turns into objects (HGETALL) become the flat [field, value, …] array.
 */
export function normalizeRedisReply(reply: unknown): unknown {
  if (reply === undefined || reply === null) return null;
  if (typeof reply === "string" || typeof reply === "number") return reply;
  if (Buffer.isBuffer(reply)) return reply.toString("utf8");
  if (Array.isArray(reply)) return reply.map(normalizeRedisReply);
  if (reply instanceof Error) return reply.message;
  if (typeof reply === "object") {
    return Object.entries(reply as Record<string, unknown>).flatMap(([field, value]) => [field, normalizeRedisReply(value)]);
  }
  return reply;
}

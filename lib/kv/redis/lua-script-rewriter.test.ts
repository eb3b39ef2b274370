import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { LuaScriptRewriter, normalizeRedisReply, parseRedisCommand, stripUpstashOnlyFlags } from "@/lib/kv/redis/lua-script-rewriter";

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

describe("stripUpstashOnlyFlags", () => {
  it("drops a shebang whose only flag is allow-key-locking, keeping line numbers", () => {
    expect(stripUpstashOnlyFlags("#!lua flags=allow-key-locking\n  return 1\n")).toBe("\n  return 1\n");
  });

  it("keeps the flags plain Redis knows", () => {
    expect(stripUpstashOnlyFlags("#!lua flags=no-writes,allow-key-locking\nreturn 1")).toBe("#!lua flags=no-writes\nreturn 1");
    expect(stripUpstashOnlyFlags("#!lua name=mylib flags=allow-key-locking\nreturn 1")).toBe("#!lua name=mylib\nreturn 1");
  });

  it("leaves scripts without the flag untouched", () => {
    for (const script of ["return 1", "#!lua flags=no-writes\nreturn 1", "#!lua\nreturn 1", "-- #!lua flags=allow-key-locking\nreturn 1"]) {
      expect(stripUpstashOnlyFlags(script)).toBe(script);
    }
  });
});

describe("LuaScriptRewriter", () => {
  const script = "#!lua flags=allow-key-locking\nreturn redis.call('GET', KEYS[1])";
  const rewritten = "\nreturn redis.call('GET', KEYS[1])";

  it("rewrites EVAL and then maps the client's SHA-1 to the one Redis holds", () => {
    const rewriter = new LuaScriptRewriter();
    expect(rewriter.rewriteCommand(["evalsha", sha1(script), 1, "k"])).toEqual(["evalsha", sha1(script), 1, "k"]);
    expect(rewriter.rewriteCommand(["eval", script, 1, "k"])).toEqual(["eval", rewritten, 1, "k"]);
    expect(rewriter.rewriteCommand(["EVALSHA", sha1(script), 1, "k"])).toEqual(["EVALSHA", sha1(rewritten), 1, "k"]);
    expect(rewriter.rewriteCommand(["evalsha_ro", sha1(script).toUpperCase(), 0])).toEqual(["evalsha_ro", sha1(rewritten), 0]);
  });

  it("rewrites SCRIPT LOAD and leaves other commands alone", () => {
    const rewriter = new LuaScriptRewriter();
    expect(rewriter.rewriteCommand(["script", "load", script])).toEqual(["script", "load", rewritten]);
    expect(rewriter.rewriteCommand(["evalsha", sha1(script), 0])).toEqual(["evalsha", sha1(rewritten), 0]);
    expect(rewriter.rewriteCommand(["set", "#!lua flags=allow-key-locking", "v"])).toEqual(["set", "#!lua flags=allow-key-locking", "v"]);
  });
});

describe("normalizeRedisReply", () => {
  it("answers the Upstash REST shapes", () => {
    expect(normalizeRedisReply(undefined)).toBeNull();
    expect(normalizeRedisReply(null)).toBeNull();
    expect(normalizeRedisReply([1, null, "a", [null, Buffer.from("é")]])).toEqual([1, null, "a", [null, "é"]]);
    expect(normalizeRedisReply({ field: "1", other: "x" })).toEqual(["field", "1", "other", "x"]);
    expect(normalizeRedisReply({})).toEqual([]);
  });
});

describe("parseRedisCommand", () => {
  it("accepts what @upstash/redis sends and refuses anything else", () => {
    expect(parseRedisCommand(["set", "k", 1, true])).toEqual(["set", "k", 1, "true"]);
    for (const body of [[], {}, "get", [1, "k"], ["get", { k: 1 }], ["get", null]]) {
      expect(() => parseRedisCommand(body)).toThrow(TypeError);
    }
  });
});

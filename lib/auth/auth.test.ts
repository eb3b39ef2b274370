import { describe, expect, it } from "vitest";
import { API_KEY_PREFIX, describeApiKey, generateApiKey, hashApiKey, isWellFormedApiKey } from "./api-keys/api-key-format";
import { hashPassword, verifyPassword } from "./password";
import { roleAllows } from "./permissions";

describe("API key format", () => {
  it("has a fixed scannable prefix and a checksum that catches typos", () => {
    const key = generateApiKey();
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(isWellFormedApiKey(key)).toBe(true);
    const typo = key.slice(0, 10) + (key[10] === "a" ? "b" : "a") + key.slice(11);
    expect(isWellFormedApiKey(typo)).toBe(false);
    expect(isWellFormedApiKey(`${key}x`)).toBe(false);
    expect(new Set(Array.from({ length: 200 }, generateApiKey)).size).toBe(200);
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(describeApiKey(key)).toEqual({ prefix: key.slice(0, 10), lastFour: key.slice(-4) });
  });
});

describe("passwords", () => {
  it("hash with scrypt at a strong cost and verify", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("correct hors", hash)).toBe(false);
    expect(await verifyPassword("correct horse", "garbage")).toBe(false);
  });
});

describe("roles", () => {
  it("let members work with content and only admins manage the project", () => {
    expect(roleAllows("member", "endpoints.create")).toBe(true);
    expect(roleAllows("member", "project.manage")).toBe(false);
    expect(roleAllows("admin", "project.manage")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { DEFAULT_CALLBACK_PATH, safeCallbackUrl } from "./safe-callback-url";

const APP = "http://127.0.0.1:3911";

/** Where a browser lands when it follows `target` from a page of the app (WHATWG URL parsing, as browsers do). */
function landing(target: string): string {
  return new URL(target, `${APP}/sign-in`).origin;
}

describe("safeCallbackUrl", () => {
  // Each value is given as the page receives it (already percent-decoded by the query string parser)
  // and, where it differs, as it would arrive still encoded.
  const bypasses: Array<[string, string]> = [
    ["tab in the path, decoded", "/\t/evil.example"],
    ["tab in the path, encoded", "/%09/evil.example"],
    ["newline in the path", "/\n/evil.example"],
    ["carriage return in the path", "/\r/evil.example"],
    ["CR LF in the path", "/\r\n/evil.example"],
    ["CR LF before the slashes", "\r\n//evil.example"],
    ["leading space", " //evil.example"],
    ["slash backslash", "/\\evil.example"],
    ["escaped slashes", "\\/\\/evil.example"],
    ["backslashes", "\\\\evil.example"],
    ["protocol-relative", "//evil.example"],
    ["protocol-relative with path", "//evil.example/workspaces"],
    ["triple slash", "///evil.example"],
    ["encoded slashes", "/%2F%2Fevil.example"],
    ["scheme without slashes", "https:evil.example"],
    ["scheme with one slash", "https:/evil.example"],
    ["other origin", "https://evil.example"],
    ["other origin, http", "http://evil.example/workspaces"],
    ["credentials before the host", "http://127.0.0.1:3911@evil.example/"],
    ["the app's host with another port", "http://127.0.0.1:3912/workspaces"],
    ["malformed port", "http://127.0.0.1:3911.evil.example/"],
    ["javascript:", "javascript:alert(1)"],
    ["javascript: with a tab", "java\tscript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
  ];

  it.each(bypasses)("keeps the browser on the app's origin: %s", (_name, value) => {
    const result = safeCallbackUrl(value, [APP]);
    expect(result.startsWith("/")).toBe(true);
    expect(result.startsWith("//")).toBe(false);
    expect(landing(result)).toBe(APP);
  });

  it.each([
    ["/\t/evil.example"],
    ["/\\evil.example"],
    ["\\/\\/evil.example"],
    ["//evil.example"],
    ["https://evil.example"],
    ["javascript:alert(1)"],
    ["/\r\n/evil.example"],
    ["/%09/evil.example"],
    ["/%0d%0a/evil.example"],
    ["/%2F%2Fevil.example"],
    ["/%5Cevil.example"],
    ["/100%"],
    ["http://127.0.0.1:3911.evil.example/"],
    [""],
    [undefined],
    [null],
  ])("falls back to /workspaces for %j", (value) => {
    expect(safeCallbackUrl(value, [APP])).toBe(DEFAULT_CALLBACK_PATH);
  });

  it.each([
    ["/projects/p_1", "/projects/p_1"],
    ["/projects/p_1?tab=keys#new", "/projects/p_1?tab=keys#new"],
    ["/invitations/abc%2Fdef", "/invitations/abc%2Fdef"],
    ["/sign-in?callbackUrl=%2Finvitations%2Fx", "/sign-in?callbackUrl=%2Finvitations%2Fx"],
    [`${APP}/projects/p_1?tab=keys`, "/projects/p_1?tab=keys"],
    [`${APP}`, "/"],
    ["projects/p_1", "/projects/p_1"],
  ])("accepts the app's own paths and absolute URLs: %j", (value, expected) => {
    expect(safeCallbackUrl(value, [APP])).toBe(expected);
  });

  it("accepts any of the allowed origins and resolves relative values against the first", () => {
    expect(safeCallbackUrl("https://dashboard.example/projects", [APP, "https://dashboard.example"])).toBe("/projects");
    expect(safeCallbackUrl("https://other.example/projects", [APP, "https://dashboard.example"])).toBe(DEFAULT_CALLBACK_PATH);
  });

  it("takes the first of repeated query values and refuses overlong ones", () => {
    expect(safeCallbackUrl(["/projects", "//evil.example"], [APP])).toBe("/projects");
    expect(safeCallbackUrl(`/${"a".repeat(5000)}`, [APP])).toBe(DEFAULT_CALLBACK_PATH);
  });

  it("falls back when the app's own URL is unusable", () => {
    expect(safeCallbackUrl("/projects", ["not a url"])).toBe(DEFAULT_CALLBACK_PATH);
  });
});

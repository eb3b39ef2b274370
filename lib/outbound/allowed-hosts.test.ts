import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, resetConfigForTests } from "@/lib/config";
import { getAllowedHosts, isAllowedHost, parseAllowedHosts } from "./allowed-hosts";

describe("parseAllowedHosts", () => {
  it("reads host[:port] pairs, bracketed IPv6 and bare IPv6, in canonical form", () => {
    expect(parseAllowedHosts(" 127.0.0.1:5555, Internal.Example.,[::1]:8080 , [FD00::5], fd00::6,api.local:443,,")).toEqual([
      { host: "127.0.0.1", port: 5555 },
      { host: "internal.example", port: null },
      { host: "::1", port: 8080 },
      { host: "fd00::5", port: null },
      { host: "fd00::6", port: null },
      { host: "api.local", port: 443 },
    ]);
  });

  it("normalises IPv4 spellings so an entry matches however the URL spells it", () => {
    expect(parseAllowedHosts("2130706433:80")).toEqual([{ host: "127.0.0.1", port: 80 }]);
  });

  it("is empty when unset or blank", () => {
    expect(parseAllowedHosts(undefined)).toEqual([]);
    expect(parseAllowedHosts("")).toEqual([]);
    expect(parseAllowedHosts(" , ")).toEqual([]);
  });

  it.each(["127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:http", "[::1", "[::1]8080", "[::1]:", "bad host:80", "http://x.example", "1.2.3.4.5", "*.example.com"])(
    "refuses %j with a ConfigError naming the variable",
    (value) => {
      expect(() => parseAllowedHosts(value)).toThrow(ConfigError);
      expect(() => parseAllowedHosts(value)).toThrow(/OUTBOUND_ALLOWED_HOSTS/);
    },
  );
});

describe("isAllowedHost", () => {
  const allowed = parseAllowedHosts("127.0.0.1:5555,internal.example,[::1]:8080");

  it("matches the exact host and port", () => {
    expect(isAllowedHost("127.0.0.1", 5555, allowed)).toBe(true);
    expect(isAllowedHost("127.0.0.1", 5556, allowed)).toBe(false);
    expect(isAllowedHost("::1", 8080, allowed)).toBe(true);
    expect(isAllowedHost("[::1]", 8080, allowed)).toBe(true);
    expect(isAllowedHost("::1", 8081, allowed)).toBe(false);
  });

  it("treats an entry without a port as any port, names case-insensitively, a trailing dot ignored", () => {
    expect(isAllowedHost("internal.example", 1, allowed)).toBe(true);
    expect(isAllowedHost("INTERNAL.example.", 65535, allowed)).toBe(true);
  });

  it("never matches by suffix, by resolved address or by another spelling of a name", () => {
    expect(isAllowedHost("evil.internal.example", 80, allowed)).toBe(false);
    expect(isAllowedHost("internal.example.evil", 80, allowed)).toBe(false);
    expect(isAllowedHost("localhost", 5555, allowed)).toBe(false);
    expect(isAllowedHost("127.0.0.2", 5555, allowed)).toBe(false);
  });

  it("matches another spelling of the same IP literal", () => {
    expect(isAllowedHost("2130706433", 5555, allowed)).toBe(true);
    expect(isAllowedHost("0:0:0:0:0:0:0:1", 8080, allowed)).toBe(true);
  });
});

describe("getAllowedHosts", () => {
  afterEach(() => {
    delete process.env.OUTBOUND_ALLOWED_HOSTS;
    resetConfigForTests();
  });

  it("reads OUTBOUND_ALLOWED_HOSTS through getConfig and follows changes", () => {
    process.env.OUTBOUND_ALLOWED_HOSTS = "127.0.0.1:4000";
    resetConfigForTests();
    expect(getAllowedHosts()).toEqual([{ host: "127.0.0.1", port: 4000 }]);
    process.env.OUTBOUND_ALLOWED_HOSTS = "localhost";
    resetConfigForTests();
    expect(getAllowedHosts()).toEqual([{ host: "localhost", port: null }]);
    delete process.env.OUTBOUND_ALLOWED_HOSTS;
    resetConfigForTests();
    expect(getAllowedHosts()).toEqual([]);
  });
});

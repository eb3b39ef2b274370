import { describe, expect, it } from "vitest";
import { classifyAddress, describeAddressKind, isPublicAddress, parseHost } from "./address-policy";

describe("isPublicAddress: IPv4", () => {
  it.each([
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["100.64.0.1", "shared"],
    ["100.127.255.255", "shared"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "metadata"],
    ["169.254.0.1", "link-local"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.1", "documentation"],
    ["192.88.99.1", "reserved"],
    ["192.168.1.1", "private"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
  ])("%s is not public (%s)", (ip, kind) => {
    expect(isPublicAddress(ip)).toBe(false);
    expect(classifyAddress(ip).kind).toBe(kind);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "169.253.255.255",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "11.0.0.0",
  ])("%s is public", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe("isPublicAddress: IPv6", () => {
  it.each([
    ["::", "unspecified", undefined],
    ["::1", "loopback", undefined],
    ["0:0:0:0:0:0:0:1", "loopback", undefined],
    ["::ffff:127.0.0.1", "loopback", "127.0.0.1"],
    ["::ffff:7f00:1", "loopback", "127.0.0.1"],
    ["::ffff:a9fe:a9fe", "metadata", "169.254.169.254"],
    ["::ffff:10.0.0.1", "private", "10.0.0.1"],
    ["64:ff9b::7f00:1", "loopback", "127.0.0.1"],
    ["64:ff9b::10.1.2.3", "private", "10.1.2.3"],
    ["64:ff9b:1::808:808", "private", undefined],
    ["2002:7f00:1::", "loopback", "127.0.0.1"],
    ["2002:a9fe:a9fe::1", "metadata", "169.254.169.254"],
    ["2002:c0a8:101::", "private", "192.168.1.1"],
    ["::127.0.0.1", "reserved", undefined],
    ["::7f00:1", "reserved", undefined],
    ["::8.8.8.8", "reserved", undefined],
    ["::ffff:0:808:808", "reserved", undefined],
    ["100::1", "reserved", undefined],
    ["2001::1", "reserved", undefined],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved", undefined],
    ["2001:2::1", "benchmarking", undefined],
    ["2001:10::1", "reserved", undefined],
    ["2001:20::1", "reserved", undefined],
    ["2001:db8::1", "documentation", undefined],
    ["3fff::1", "documentation", undefined],
    ["fc00::1", "private", undefined],
    ["fd00:ec2::254", "private", undefined],
    ["fe80::1", "link-local", undefined],
    ["febf::1", "link-local", undefined],
    ["fec0::1", "private", undefined],
    ["ff02::1", "multicast", undefined],
    ["4000::1", "reserved", undefined],
    ["5f00::1", "reserved", undefined],
    ["1::1", "reserved", undefined],
    ["fe80::1%eth0", "scoped", undefined],
    ["[::1]", "loopback", undefined],
  ])("%s is not public (%s)", (ip, kind, embeddedIpv4) => {
    expect(isPublicAddress(ip)).toBe(false);
    const classification = classifyAddress(ip);
    expect(classification.kind).toBe(kind);
    expect(classification.embeddedIpv4).toBe(embeddedIpv4);
  });

  it.each(["2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2001:200::1", "3ffe::1"])(
    "%s is public",
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );
});

describe("isPublicAddress: not an address", () => {
  it.each(["", "localhost", "example.com", "2130706433", "127.1", "1.2.3.4.5", "::g", "[::1", "256.0.0.1"])("%j fails closed", (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });
});

describe("describeAddressKind", () => {
  it("names the kind and the embedded IPv4 address", () => {
    expect(describeAddressKind(classifyAddress("10.0.0.5"))).toBe("a private address");
    expect(describeAddressKind(classifyAddress("169.254.169.254"))).toBe("the cloud metadata address");
    expect(describeAddressKind(classifyAddress("::ffff:127.0.0.1"))).toBe("a loopback address (embedding 127.0.0.1)");
    expect(describeAddressKind(classifyAddress("100.64.0.1"))).toBe("a carrier-grade NAT (shared) address");
  });
});

describe("parseHost: IPv4 spellings read as browsers and inet_aton read them", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0X7F000001", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["127.000.000.001", "127.0.0.1"],
    ["0x7f.0.0.0x1", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["0x", "0.0.0.0"],
    ["1.2.3.0x", "1.2.3.0"],
    ["0xa9fea9fe", "169.254.169.254"],
    ["169.254.43518", "169.254.169.254"],
    ["0251.0376.0251.0376", "169.254.169.254"],
    ["4294967295", "255.255.255.255"],
    ["8.8.8.8", "8.8.8.8"],
  ])("%s → %s", (host, address) => {
    expect(parseHost(host)).toEqual({ kind: "ip", address, family: 4 });
  });

  it("agrees with the WHATWG URL parser on every spelling it normalises", () => {
    for (const host of ["2130706433", "0177.0.0.1", "0x7f000001", "0x7f.1", "127.1", "0251.0376.0251.0376", "0", "127.0.0.1.", "1.2.3.0x", "0x.0x"]) {
      const parsed = parseHost(host);
      expect(parsed.kind).toBe("ip");
      expect(parsed.kind === "ip" && parsed.address).toBe(new URL(`http://${host}/`).hostname.replace(/\.$/, ""));
    }
  });

  it.each(["1.2.3.4.5", "256.0.0.1", "09.0.0.1", "0x100.0.0.1", "4294967296", "1..2", "0xg.1"])(
    "%s ends in a number but is not a valid IPv4 address: invalid, never a DNS name",
    (host) => {
      expect(parseHost(host).kind).toBe("invalid");
    },
  );
});

describe("parseHost: IPv6 and names", () => {
  it.each([
    ["[::1]", "::1"],
    ["::1", "::1"],
    ["[0:0:0:0:0:0:0:1]", "::1"],
    ["[::ffff:127.0.0.1]", "::ffff:7f00:1"],
    ["[::FFFF:7F00:1]", "::ffff:7f00:1"],
    ["[fe80::1%25eth0]", "fe80::1%eth0"],
    ["[fe80::1%eth0]", "fe80::1%eth0"],
    ["2001:DB8::1", "2001:db8::1"],
  ])("%s → %s", (host, address) => {
    expect(parseHost(host)).toEqual({ kind: "ip", address, family: 6 });
  });

  it.each([
    ["localhost", "localhost"],
    ["LOCALHOST.", "localhost."],
    ["api.example.com", "api.example.com"],
    ["xn--bcher-kva.example", "xn--bcher-kva.example"],
    ["127.0.0.1.nip.io", "127.0.0.1.nip.io"],
    ["my_service.internal", "my_service.internal"],
  ])("%s is a name", (host, name) => {
    expect(parseHost(host)).toEqual({ kind: "name", name });
  });

  it.each(["", "[::1", "[127.0.0.1]", "::g", "exa mple.com", "-leading.example", "a/b", "bücher.example", "host:80", `${"a".repeat(64)}.example`])("%j is invalid", (host) => {
    expect(parseHost(host).kind).toBe("invalid");
  });
});

import { isIPv4, isIPv6 } from "./ip-syntax";

/**
 * Which IP addresses outbound traffic may reach, and how host spellings are read.
 *
 * Only globally routable unicast addresses are public. Everything else — loopback, private, link-local,
 * cloud metadata, carrier-grade NAT, documentation, multicast, reserved — is refused, and IPv6 forms that
 * carry an IPv4 address (IPv4-mapped, NAT64, 6to4) are judged by the IPv4 address they carry.
 */

/** Why an address is (not) public; `public` is the only kind outbound traffic may reach. */
export type AddressKind =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "shared"
  | "link-local"
  | "metadata"
  | "documentation"
  | "benchmarking"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "scoped"
  | "invalid";

export interface AddressClassification {
  kind: AddressKind;
  /** For IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4): that address, in dotted form. */
  embeddedIpv4?: string;
}

/** A host as written in a URL or a connection string, read the way browsers and inet_aton read it. */
export type ParsedHost = { kind: "ip"; address: string; family: 4 | 6 } | { kind: "name"; name: string } | { kind: "invalid"; reason: string };

interface Ipv4Range {
  base: number;
  prefix: number;
  kind: Exclude<AddressKind, "public">;
}

function ipv4Range(cidr: string, kind: Ipv4Range["kind"]): Ipv4Range {
  const [address = "", prefix = "32"] = cidr.split("/");
  return { base: ipv4ToNumber(address), prefix: Number(prefix), kind };
}

// Most specific first: the metadata address sits inside link-local, broadcast inside 240/4.
const IPV4_BLOCKED: Ipv4Range[] = [
  ipv4Range("169.254.169.254/32", "metadata"),
  ipv4Range("255.255.255.255/32", "broadcast"),
  ipv4Range("0.0.0.0/8", "unspecified"),
  ipv4Range("10.0.0.0/8", "private"),
  ipv4Range("100.64.0.0/10", "shared"),
  ipv4Range("127.0.0.0/8", "loopback"),
  ipv4Range("169.254.0.0/16", "link-local"),
  ipv4Range("172.16.0.0/12", "private"),
  ipv4Range("192.0.0.0/24", "reserved"),
  ipv4Range("192.0.2.0/24", "documentation"),
  ipv4Range("192.88.99.0/24", "reserved"),
  ipv4Range("192.168.0.0/16", "private"),
  ipv4Range("198.18.0.0/15", "benchmarking"),
  ipv4Range("198.51.100.0/24", "documentation"),
  ipv4Range("203.0.113.0/24", "documentation"),
  ipv4Range("224.0.0.0/4", "multicast"),
  ipv4Range("240.0.0.0/4", "reserved"),
];

function ipv4ToNumber(address: string): number {
  return address.split(".").reduce((total, octet) => total * 256 + Number(octet), 0);
}

function numberToIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

function classifyIpv4(address: string): AddressClassification {
  const value = ipv4ToNumber(address);
  for (const range of IPV4_BLOCKED) {
    const size = 2 ** (32 - range.prefix);
    if (value >= range.base && value < range.base + size) return { kind: range.kind };
  }
  return { kind: "public" };
}

/** The eight 16-bit groups of a valid IPv6 address (zone id already removed), or null. */
function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const value = ipv4ToNumber(tail);
    text = `${text.slice(0, lastColon + 1)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  const head = halves[0] ? halves[0].split(":") : [];
  const rest = halves.length > 1 ? (halves[1] ? halves[1].split(":") : []) : null;
  const parts = rest === null ? head : [...head, ...Array<string>(8 - head.length - rest.length).fill("0"), ...rest];
  if (parts.length !== 8) return null;
  return parts.map((part) => parseInt(part, 16));
}

function groupsMatch(groups: number[], prefixGroups: number[], prefixBits: number): boolean {
  for (let bit = 0; bit < prefixBits; bit += 16) {
    const width = Math.min(16, prefixBits - bit);
    const mask = (0xffff << (16 - width)) & 0xffff;
    const index = bit / 16;
    if (((groups[index] ?? 0) & mask) !== ((prefixGroups[index] ?? 0) & mask)) return false;
  }
  return true;
}

function embeddedClassification(high: number, low: number): AddressClassification {
  const embeddedIpv4 = numberToIpv4(high * 65536 + low);
  return { ...classifyIpv4(embeddedIpv4), embeddedIpv4 };
}

const IPV6_BLOCKED: Array<{ prefix: number[]; bits: number; kind: Exclude<AddressKind, "public"> }> = [
  { prefix: [0, 0, 0, 0, 0, 0], bits: 96, kind: "reserved" }, // IPv4-compatible ::a.b.c.d (deprecated)
  { prefix: [0x64, 0xff9b, 1], bits: 48, kind: "private" }, // local-use NAT64
  { prefix: [0x100, 0, 0, 0], bits: 64, kind: "reserved" }, // discard-only
  { prefix: [0x2001, 0], bits: 32, kind: "reserved" }, // Teredo (the IPv4 inside is obfuscated)
  { prefix: [0x2001, 0x2, 0], bits: 48, kind: "benchmarking" },
  { prefix: [0x2001, 0x10], bits: 28, kind: "reserved" }, // ORCHID
  { prefix: [0x2001, 0x20], bits: 28, kind: "reserved" }, // ORCHIDv2
  { prefix: [0x2001, 0xdb8], bits: 32, kind: "documentation" },
  { prefix: [0x3fff], bits: 20, kind: "documentation" },
  { prefix: [0xfc00], bits: 7, kind: "private" }, // unique local
  { prefix: [0xfe80], bits: 10, kind: "link-local" },
  { prefix: [0xfec0], bits: 10, kind: "private" }, // site-local (deprecated)
  { prefix: [0xff00], bits: 8, kind: "multicast" },
];

function classifyIpv6(address: string): AddressClassification {
  if (address.includes("%")) return { kind: "scoped" };
  const groups = ipv6Groups(address);
  if (!groups) return { kind: "invalid" };
  const g = (index: number) => groups[index] ?? 0;
  if (groups.every((group) => group === 0)) return { kind: "unspecified" };
  if (groups.slice(0, 7).every((group) => group === 0) && g(7) === 1) return { kind: "loopback" };
  if (groupsMatch(groups, [0, 0, 0, 0, 0, 0xffff], 96)) return embeddedClassification(g(6), g(7)); // ::ffff:a.b.c.d
  if (groupsMatch(groups, [0x64, 0xff9b, 0, 0, 0, 0], 96)) return embeddedClassification(g(6), g(7)); // NAT64
  if (g(0) === 0x2002) return embeddedClassification(g(1), g(2)); // 6to4
  for (const range of IPV6_BLOCKED) {
    if (groupsMatch(groups, range.prefix, range.bits)) return { kind: range.kind };
  }
  // Only 2000::/3 is allocated for global unicast; everything outside it is reserved.
  if ((g(0) & 0xe000) !== 0x2000) return { kind: "reserved" };
  return { kind: "public" };
}

/** Classifies an IP address (IPv4 dotted quad or IPv6, optionally with a zone id). Not an IP: `invalid`. */
export function classifyAddress(ip: string): AddressClassification {
  if (isIPv4(ip)) return classifyIpv4(ip);
  const withoutBrackets = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  if (withoutBrackets.includes("%")) {
    return isIPv6(withoutBrackets.slice(0, withoutBrackets.indexOf("%"))) ? { kind: "scoped" } : { kind: "invalid" };
  }
  if (isIPv6(withoutBrackets)) return classifyIpv6(withoutBrackets);
  return { kind: "invalid" };
}

/**
 * True only for globally routable unicast addresses. Anything that is not a valid IP address is not
 * public (fail closed). Accepts dotted IPv4 and IPv6 (bracketed or not); use `parseHost` first for other
 * IPv4 spellings such as `2130706433` or `0x7f.1`.
 */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip).kind === "public";
}

const KIND_PHRASES: Record<Exclude<AddressKind, "public">, string> = {
  unspecified: "an unspecified (this-network)",
  loopback: "a loopback",
  private: "a private",
  shared: "a carrier-grade NAT (shared)",
  "link-local": "a link-local",
  metadata: "the cloud metadata",
  documentation: "a documentation-only",
  benchmarking: "a benchmarking",
  multicast: "a multicast",
  broadcast: "the broadcast",
  reserved: "a reserved",
  scoped: "a scoped (zone id)",
  invalid: "an invalid",
};

/** "a private address", "the cloud metadata address (IPv4-mapped 169.254.169.254)". */
export function describeAddressKind(classification: AddressClassification): string {
  if (classification.kind === "public") return "a public address";
  const embedded = classification.embeddedIpv4 ? ` (embedding ${classification.embeddedIpv4})` : "";
  return `${KIND_PHRASES[classification.kind]} address${embedded}`;
}

/** WHATWG URL "IPv4 number" parser: decimal, 0x hex, leading-zero octal. */
function parseIpv4Number(part: string): number | null {
  if (part === "") return null;
  let radix = 10;
  let digits = part;
  if (/^0x/i.test(part)) {
    radix = 16;
    digits = part.slice(2);
  } else if (part.length > 1 && part.startsWith("0")) {
    radix = 8;
    digits = part.slice(1);
  }
  if (digits === "") return 0;
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return null;
  // Number() keeps precision well beyond 2^32; anything longer is out of range anyway.
  if (digits.length > 40) return Infinity;
  return parseInt(digits, radix);
}

function endsInNumber(host: string): boolean {
  const parts = host.split(".");
  if (parts[parts.length - 1] === "") {
    if (parts.length === 1) return false;
    parts.pop();
  }
  const last = parts[parts.length - 1] ?? "";
  if (/^[0-9]+$/.test(last)) return true;
  return parseIpv4Number(last) !== null;
}

/** Every IPv4 spelling browsers and inet_aton accept (`127.1`, `0x7f.1`, `0177.0.0.1`, `2130706433`). */
function parseIpv4Spelling(host: string): string | null {
  const parts = host.split(".");
  if (parts[parts.length - 1] === "" && parts.length > 1) parts.pop();
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = parseIpv4Number(part);
    if (value === null) return null;
    numbers.push(value);
  }
  const last = numbers.pop() ?? 0;
  if (numbers.some((value) => value > 255)) return null;
  if (last >= 256 ** (5 - parts.length)) return null;
  let value = last;
  numbers.forEach((octet, index) => {
    value += octet * 256 ** (3 - index);
  });
  return numberToIpv4(value);
}

const HOST_NAME = /^[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*\.?$/i;

/** Canonical IPv6 text (lowercase, compressed), as the WHATWG URL serialiser writes it. */
function canonicalIpv6(address: string): string {
  return new URL(`http://[${address}]`).hostname.slice(1, -1);
}

/**
 * Reads a host the way a browser's URL parser and inet_aton do, so that no spelling of an address slips
 * through as a "name": IPv4 in decimal, octal, hex and short forms; IPv6 with or without brackets, with a
 * zone id (`%eth0` or URL-encoded `%25eth0`). Names are lowercased and must be plain ASCII DNS names
 * (IDN must already be punycode, as `new URL()` leaves it).
 */
export function parseHost(host: string): ParsedHost {
  const text = host.trim();
  if (text === "") return { kind: "invalid", reason: "an empty host" };
  const bracketed = text.startsWith("[") && text.endsWith("]");
  const inner = bracketed ? text.slice(1, -1) : text;
  if (inner.includes(":")) {
    const zoneAt = inner.indexOf("%");
    const bare = zoneAt === -1 ? inner : inner.slice(0, zoneAt);
    if (!isIPv6(bare)) return { kind: "invalid", reason: "not a valid IPv6 address" };
    const rawZone = zoneAt === -1 ? "" : inner.slice(zoneAt);
    const zone = rawZone.startsWith("%25") ? `%${rawZone.slice(3)}` : rawZone;
    return { kind: "ip", address: `${canonicalIpv6(bare)}${zone}`, family: 6 };
  }
  if (bracketed) return { kind: "invalid", reason: "not a valid IPv6 address" };
  if (endsInNumber(text)) {
    const address = parseIpv4Spelling(text);
    return address ? { kind: "ip", address, family: 4 } : { kind: "invalid", reason: "not a valid IPv4 address" };
  }
  if (!HOST_NAME.test(text) || text.length > 254) return { kind: "invalid", reason: "not a valid host name" };
  return { kind: "name", name: text.toLowerCase() };
}

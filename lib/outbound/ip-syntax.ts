/**
 * `isIPv4` / `isIPv6` with the exact grammar of Node's `node:net` (lib/internal/net.js), without
 * importing Node: the address policy is shared with the dashboard, which warns about private hosts
 * as URLs are typed. ip-syntax.test.ts checks the two agree.
 */

const V4_SEGMENT = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])";
const V4_TEXT = `(?:${V4_SEGMENT}\\.){3}${V4_SEGMENT}`;
const IPV4 = new RegExp(`^${V4_TEXT}$`);

const V6_SEGMENT = "(?:[0-9a-fA-F]{1,4})";
const IPV6 = new RegExp(
  "^(?:" +
    `(?:${V6_SEGMENT}:){7}(?:${V6_SEGMENT}|:)|` +
    `(?:${V6_SEGMENT}:){6}(?:${V4_TEXT}|:${V6_SEGMENT}|:)|` +
    `(?:${V6_SEGMENT}:){5}(?::${V4_TEXT}|(?::${V6_SEGMENT}){1,2}|:)|` +
    `(?:${V6_SEGMENT}:){4}(?:(?::${V6_SEGMENT}){0,1}:${V4_TEXT}|(?::${V6_SEGMENT}){1,3}|:)|` +
    `(?:${V6_SEGMENT}:){3}(?:(?::${V6_SEGMENT}){0,2}:${V4_TEXT}|(?::${V6_SEGMENT}){1,4}|:)|` +
    `(?:${V6_SEGMENT}:){2}(?:(?::${V6_SEGMENT}){0,3}:${V4_TEXT}|(?::${V6_SEGMENT}){1,5}|:)|` +
    `(?:${V6_SEGMENT}:){1}(?:(?::${V6_SEGMENT}){0,4}:${V4_TEXT}|(?::${V6_SEGMENT}){1,6}|:)|` +
    `(?::(?:(?::${V6_SEGMENT}){0,5}:${V4_TEXT}|(?::${V6_SEGMENT}){1,7}|:))` +
    ")(?:%[0-9a-zA-Z-.:]{1,})?$",
);

/** A dotted-quad IPv4 address: four decimal octets 0–255 without leading zeros. */
export function isIPv4(text: string): boolean {
  return IPV4.test(text);
}

/** An IPv6 address (compressed, with an embedded IPv4 tail, or with a zone id), without brackets. */
export function isIPv6(text: string): boolean {
  return IPV6.test(text);
}

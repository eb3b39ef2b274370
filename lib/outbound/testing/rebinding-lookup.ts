import type { HostLookup, ResolvedAddress } from "../assert-public-destination";

/** A documentation-range-like public address that the stubbed resolvers answer first. */
export const PUBLIC_ADDRESS = "93.184.215.14";
export const LOOPBACK_ANSWER: ResolvedAddress[] = [{ address: "127.0.0.1", family: 4 }];

/** A stub resolver for DNS rebinding: answers `first` on the first lookup and `later` on every one after it, counting calls. */
export function rebindingLookup(first: ResolvedAddress[], later: ResolvedAddress[]): HostLookup & { calls: () => number } {
  let calls = 0;
  const lookup = async () => {
    calls += 1;
    return calls === 1 ? first : later;
  };
  return Object.assign(lookup, { calls: () => calls });
}

/**
 * Public endpoints allow 60 calls a minute per client IP, so the load generator rotates the
 * `x-real-ip` header (the app runs with TRUSTED_PROXY=x-real-ip) over a pool of addresses.
 * Every measurement gets a block of its own, so no two measurements share a counter.
 */

/** Each IP stays at or below this many calls in any minute: below 60, with room for the sliding window's rounding. */
const CALLS_PER_IP_PER_MINUTE = 48;
let nextAddress = 1;

export interface ClientIpPool {
  readonly size: number;
  next(): string;
}

function toAddress(n: number): string {
  return `10.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/**
 * IPs enough that round-robin rotation keeps each under the limit: at `rate` requests/s for
 * `seconds`, each IP sees rate × min(seconds, 60) / size calls in any minute.
 */
export function clientIpPoolFor(rate: number, seconds: number): ClientIpPool {
  const size = Math.max(1, Math.ceil((rate * Math.min(seconds, 60)) / CALLS_PER_IP_PER_MINUTE));
  const first = nextAddress;
  nextAddress += size;
  if (nextAddress >= 1 << 24) throw new Error("the client IP space (10.0.0.0/8) is used up; lower --max-rate or the number of rounds");
  let index = 0;
  return {
    size,
    next() {
      const address = toAddress(first + index);
      index = (index + 1) % size;
      return address;
    },
  };
}

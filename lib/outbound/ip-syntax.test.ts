import * as net from "node:net";
import { describe, expect, it } from "vitest";
import { isIPv4, isIPv6 } from "./ip-syntax";

const SAMPLES = [
  "",
  "1.2.3.4",
  "255.255.255.255",
  "256.1.1.1",
  "01.2.3.4",
  "1.2.3",
  "1.2.3.4.5",
  "127.1",
  "0x7f.0.0.1",
  "::",
  "::1",
  "1::",
  "1:2:3:4:5:6:7:8",
  "1:2:3:4:5:6:7:8:9",
  "1:2:3:4:5:6:7::",
  "1::2::3",
  "::ffff:1.2.3.4",
  "::ffff:127.0.0.1",
  "64:ff9b::10.0.0.1",
  "1:2:3:4:5:6:1.2.3.4",
  "a:b:c:d:e:f:1.2.3.4",
  "fe80::1%eth0",
  "fe80::1%25eth0",
  "fe80::1%",
  "[::1]",
  "12345::1",
  "g::1",
  "::1.2.3",
  "localhost",
  " 1.2.3.4",
];

function randomAddressLike(random: () => number): string {
  const alphabet = "0123456789abcdefABCDEF:.%g";
  const length = 1 + Math.floor(random() * 24);
  let text = "";
  for (let index = 0; index < length; index++) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}

/** Deterministic, so that a disagreement is reproducible. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe("ip syntax without node:net", () => {
  it("agrees with node:net on edge cases", () => {
    for (const sample of SAMPLES) {
      expect(isIPv4(sample), sample).toBe(net.isIPv4(sample));
      expect(isIPv6(sample), sample).toBe(net.isIPv6(sample));
    }
  });

  it("agrees with node:net on random address-like text and on real addresses", () => {
    const random = seededRandom(20_261_124);
    for (let round = 0; round < 20_000; round++) {
      const sample = randomAddressLike(random);
      expect(isIPv4(sample), sample).toBe(net.isIPv4(sample));
      expect(isIPv6(sample), sample).toBe(net.isIPv6(sample));
    }
    for (let round = 0; round < 2_000; round++) {
      const groups = Array.from({ length: 8 }, () => Math.floor(random() * 0x10000).toString(16));
      const compressedAt = Math.floor(random() * 8);
      const compressed = `${groups.slice(0, compressedAt).join(":")}::${groups.slice(compressedAt + 1 + Math.floor(random() * 3)).join(":")}`;
      for (const sample of [groups.join(":"), compressed]) expect(isIPv6(sample), sample).toBe(net.isIPv6(sample));
    }
  });
});

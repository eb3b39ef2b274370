import { describe, expect, it } from "vitest";
import { findSlowPattern } from "./probe-pattern-speed";

describe("findSlowPattern", () => {
  it("passes ordinary patterns, including ones with overlapping classes", async () => {
    const patterns = ["^[a-z0-9-]+$", "^[a-z0-9.-]+\\.[a-z]{2,}$", "[a-z]+@", "^\\d{3}-\\d{4}$", "^(?:\\+\\d{1,3})?[ 0-9]{6,14}$"];
    expect(await findSlowPattern(patterns.map((pattern) => ({ pattern, maxLength: 2000 })))).toBeNull();
  });

  it("answers nothing for no patterns without starting a worker", async () => {
    expect(await findSlowPattern([])).toBeNull();
  });

  it("names a polynomial pattern that the static check lets through", async () => {
    const slow = "\\d*\\d*\\d*\\d*x";
    expect(
      await findSlowPattern([
        { pattern: "^ok$", maxLength: 2000 },
        { pattern: slow, maxLength: 2000 },
      ]),
    ).toBe(slow);
  });

  it("reaches slow parts behind a literal prefix", async () => {
    const slow = "^id-\\w*\\w*\\w*!$";
    expect(await findSlowPattern([{ pattern: slow, maxLength: 2000 }])).toBe(slow);
  });

  it("probes only up to the field's own maximum length", async () => {
    // Cubic, but harmless on 20 characters.
    expect(await findSlowPattern([{ pattern: "\\d*\\d*\\d*x", maxLength: 20 }])).toBeNull();
  });
});

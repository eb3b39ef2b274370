import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { configureZodForBrowser } from "./browser-runtime-config";

describe("configureZodForBrowser", () => {
  afterEach(() => {
    z.config({ jitless: undefined });
  });

  it("switches zod's compiled parsers off through the configuration object zod reads", () => {
    expect(z.config().jitless).not.toBe(true);
    configureZodForBrowser();
    expect(z.config().jitless).toBe(true);
  });
});

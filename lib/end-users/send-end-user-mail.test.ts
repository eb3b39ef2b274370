import { afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { endUserMailLink } from "./send-end-user-mail";

const saved = { APP_URL: process.env.APP_URL, INVOCATION_URL: process.env.INVOCATION_URL };

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
});

describe("endUserMailLink", () => {
  it("points at the dashboard's URL when there is no separate invocation origin", () => {
    process.env.APP_URL = "https://app.flowpoint.example";
    delete process.env.INVOCATION_URL;
    resetConfigForTests();
    expect(endUserMailLink({ projectId: "prj_1", schema: "members", kind: "verification", token: "a b" })).toBe(
      "https://app.flowpoint.example/auth/prj_1/members/verify?token=a%20b",
    );
  });

  it("points at INVOCATION_URL when set: end users never need the dashboard's host", () => {
    process.env.APP_URL = "https://app.flowpoint.example";
    process.env.INVOCATION_URL = "https://fn.flowpoint.example";
    resetConfigForTests();
    expect(endUserMailLink({ projectId: "prj_1", schema: "members", kind: "password_reset", token: "t" })).toBe(
      "https://fn.flowpoint.example/auth/prj_1/members/reset-password?token=t",
    );
  });
});

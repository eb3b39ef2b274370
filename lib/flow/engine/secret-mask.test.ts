import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BackgroundFailure, FlowServices } from "@/lib/flow/engine/flow-services";
import { runFlow } from "@/lib/flow/engine/run-flow";
import { allowLoopbackOutbound } from "@/lib/flow/testing/allow-loopback";
import { startLocalTestServer, type LocalTestServer } from "@/lib/outbound/local-test-server";
import { safeFetch } from "@/lib/outbound/safe-fetch";
import { SecretMask } from "./secret-mask";

const TOKEN = 'tok_9c/8+b=a&x"y';

describe("SecretMask", () => {
  it("masks the value and its URL-encoded, base64 and JSON-escaped forms, in text and JSON values", () => {
    const mask = new SecretMask();
    expect(mask.isEmpty).toBe(true);
    mask.add("API_TOKEN", TOKEN);
    mask.add("SHORT", "tok");
    const text = `a ${TOKEN} b ${encodeURIComponent(TOKEN)} c ${Buffer.from(TOKEN).toString("base64")} d ${JSON.stringify(TOKEN)}`;
    const masked = mask.text(text);
    expect(masked).toBe('a [secret:API_TOKEN] b [secret:API_TOKEN] c [secret:API_TOKEN] d "[secret:API_TOKEN]"');
    expect(mask.value({ [TOKEN]: [TOKEN, 1, null, { deep: `x${TOKEN}` }], n: 5 })).toEqual({
      "[secret:API_TOKEN]": ["[secret:API_TOKEN]", 1, null, { deep: "x[secret:API_TOKEN]" }],
      n: 5,
    });
    const numeric = new SecretMask();
    numeric.add("PIN", "123456");
    expect(numeric.value({ pin: 123456, other: 7 })).toEqual({ pin: "[secret:PIN]", other: 7 });
  });
});

describe("secrets in a run", () => {
  allowLoopbackOutbound();
  let upstream: LocalTestServer;
  beforeAll(async () => {
    upstream = await startLocalTestServer((request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ youSent: request.headers.authorization ?? null, path: request.url }));
    });
  });
  afterAll(() => upstream.close());

  function services(values: Record<string, string>, failures: BackgroundFailure[] = []): FlowServices {
    return {
      fetch: safeFetch,
      secrets: { resolve: async (names) => Object.fromEntries(names.filter((name) => name in values).map((name) => [name, values[name]!])) },
      onBackgroundFailure: (failure) => failures.push(failure),
      onBackgroundTask: () => undefined,
    };
  }

  it("sends the real value upstream and masks it in the output the next steps and the caller see", async () => {
    const run = await runFlow({
      steps: [
        { type: "http", name: "call", url: `http://127.0.0.1:${upstream.port}/echo/{{secrets.API_TOKEN}}`, headers: { authorization: "Bearer {{secrets.API_TOKEN}}" } },
        { type: "transform", name: "copy", expression: "steps.call.body" },
      ],
      services: services({ API_TOKEN: TOKEN }),
    });
    expect(run.outcome).toBe("completed");
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(upstream.requests.at(-1)?.url).toBe(`/echo/${encodeURIComponent(TOKEN)}`);
    const expected = { youSent: "Bearer [secret:API_TOKEN]", path: "/echo/[secret:API_TOKEN]" };
    expect(run.steps[0]?.output).toEqual({ status: 200, ok: true, body: expected });
    expect(run.context.steps.copy).toEqual(expected);
    expect(JSON.stringify(run)).not.toContain(TOKEN);
  });

  it("fails a step naming a missing secret, and masks values quoted in errors", async () => {
    const missing = await runFlow({ steps: [{ type: "http", url: "https://api.example/{{secrets.GONE}}" }], services: services({}) });
    expect(missing.outcome).toBe("failed");
    expect(missing.error?.message).toMatch(/secret "GONE" is not defined in this project/);

    const quoted = await runFlow({ steps: [{ type: "http", url: "{{secrets.BASE}}/x" }], services: services({ BASE: "ftp://files.example/very-secret" }) });
    expect(quoted.outcome).toBe("failed");
    expect(quoted.error?.message).toContain("[secret:BASE]");
    expect(JSON.stringify(quoted)).not.toContain("very-secret");
  });

  it("keeps the egress guard when the host comes from a secret, and masks webhook failures", async () => {
    const blocked = await runFlow({ steps: [{ type: "http", url: "{{secrets.BASE}}/latest/meta-data" }], services: services({ BASE: "http://169.254.169.254" }) });
    expect(blocked.outcome).toBe("failed");
    expect(blocked.error?.message).toMatch(/outbound request refused/);

    const failures: BackgroundFailure[] = [];
    let delivery: Promise<void> | undefined;
    const hookServices = { ...services({ HOOK: "http://10.1.2.3/hook-secret" }, failures), onBackgroundTask: (task: Promise<void>) => void (delivery = task) };
    const run = await runFlow({ steps: [{ type: "webhook", url: "{{secrets.HOOK}}" }], services: hookServices });
    expect(run.outcome).toBe("completed");
    await delivery;
    expect(failures).toHaveLength(1);
    expect(failures[0]?.error).not.toContain("hook-secret");
  });
});

describe("SecretMask.error", () => {
  it("keeps an unexpected error's shape for the server log with the values masked", () => {
    const mask = new SecretMask();
    mask.add("API_TOKEN", TOKEN);
    const masked = mask.error(new TypeError(`fetch failed for ${TOKEN}`));
    expect(masked.name).toBe("TypeError");
    expect(masked.message).toBe("fetch failed for [secret:API_TOKEN]");
    expect(masked.stack).not.toContain(TOKEN);
  });
});

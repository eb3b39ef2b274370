import { and, eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { allowLoopbackOutbound } from "@/lib/flow/testing/allow-loopback";
import { startLocalTestServer } from "@/lib/outbound/local-test-server";
import { getPlatformDb } from "@/lib/platform-db/client";
import { memberships, projectSecrets } from "@/lib/platform-db/schema";
import { createProjectFixture, createTestUser } from "@/test/fixtures";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * Project secrets (issue 9, item 9): admin-only management that never answers a value, encrypted
 * storage, resolution only in outbound steps, masking of anything that comes back, refusal of
 * secrets where a flow could echo them, exports without values and imports that name what is missing.
 */
allowLoopbackOutbound();

const TOKEN = "sk_live_51Hx9QmZ2ExampleToken0f3a9";

const it = routeTest
  /** Echoes what it was sent: the way an upstream could hand a credential back. */
  .extend("upstream", { scope: "file" }, async ({}, { onCleanup }) => {
    const upstream = await startLocalTestServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ authorization: request.headers.authorization ?? null, url: request.url, body: Buffer.concat(chunks).toString("utf8") }));
      });
    });
    onCleanup(() => upstream.close());
    return upstream;
  })
  .extend("other", { scope: "file" }, () => createProjectFixture("Other secrets"))
  /** The workspace admin's dashboard session, sending the Origin a browser sends. */
  .extend("admin", { scope: "file" }, ({ server, ownerApi }) => ownerApi.with({ headers: { origin: server.url } }))
  .extend("secretsApi", { scope: "file" }, async ({ ownerApi, project }) => ownerApi.with({ credentials: { key: await project.keyFor(["secrets.write"]) } }))
  .extend("endpointsApi", { scope: "file" }, async ({ ownerApi, project }) =>
    ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.create", "endpoints.read", "endpoints.update", "endpoints.invoke"]) } }),
  )
  /** The flows' secret `API_TOKEN`, saved by the admin, and the upstream it is sent to. */
  .extend("flows", { scope: "file" }, async ({ upstream, admin }) => {
    expect((await admin.request("POST", "/secrets", { name: "API_TOKEN", value: TOKEN })).status).toBe(201);
    return {
      upstream,
      /** An endpoint that sends API_TOKEN to the upstream in the URL, a header and the body, and answers what came back. */
      callUpstream: () => ({
        name: "Call upstream",
        method: "POST",
        slug: "call-upstream",
        steps: [
          {
            type: "http",
            name: "call",
            method: "POST",
            url: `http://127.0.0.1:${upstream.port}/echo?key={{secrets.API_TOKEN}}`,
            headers: { Authorization: "Bearer {{secrets.API_TOKEN}}" },
            body: '{"token": "{{secrets.API_TOKEN}}", "id": "{{body.id}}"}',
          },
        ],
        response: { body: "{{steps.call.body}}" },
      }),
    };
  });

describe("managing secrets", () => {
  it("lets an admin create, list, rotate and delete secrets without ever answering a value", async ({ admin }) => {
    const created = await admin.request("POST", "/secrets", { name: "CRUD_TOKEN", value: TOKEN });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const createdText = await created.text();
    expect(createdText).not.toContain(TOKEN);
    expect(JSON.parse(createdText)).toMatchObject({ name: "CRUD_TOKEN", hint: "sk_…f3a9" });

    const listed = await admin.fetch("/secrets");
    expect(listed.status).toBe(200);
    const listText = await listed.text();
    expect(listText).not.toContain(TOKEN);
    const { data } = JSON.parse(listText) as { data: Array<Record<string, unknown>> };
    expect(data.find((secret) => secret.name === "CRUD_TOKEN")).toEqual({ name: "CRUD_TOKEN", hint: "sk_…f3a9", createdAt: expect.any(String), updatedAt: expect.any(String) });

    const duplicate = await admin.request("POST", "/secrets", { name: "CRUD_TOKEN", value: "another" });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toMatchObject({ field: "name" });

    const rotated = await admin.request("PUT", "/secrets/CRUD_TOKEN", { value: "rk_rotated_value_with_tail_7777" });
    expect(rotated.status).toBe(200);
    const rotatedText = await rotated.text();
    expect(rotatedText).not.toContain("rk_rotated_value_with_tail_7777");
    expect(JSON.parse(rotatedText)).toMatchObject({ name: "CRUD_TOKEN", hint: "rk_…7777" });
    expect((await admin.request("PUT", "/secrets/NOT_THERE", { value: "x" })).status).toBe(404);

    expect((await admin.fetch("/secrets/CRUD_TOKEN", { method: "DELETE" })).status).toBe(204);
    expect((await admin.fetch("/secrets/CRUD_TOKEN", { method: "DELETE" })).status).toBe(404);
  });

  it("answers 422 with paths for bad names and values", async ({ secretsApi }) => {
    const cases: Array<[unknown, string]> = [
      [{ name: "lower_case", value: "x" }, "name"],
      [{ name: "9LIVES", value: "x" }, "name"],
      [{ name: "EMPTY", value: "" }, "value"],
      [{ name: "HUGE", value: "x".repeat(8_193) }, "value"],
      [{ name: "NO_VALUE" }, "value"],
    ];
    for (const [body, path] of cases) {
      const response = await secretsApi.request("POST", "/secrets", body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      const answer = (await response.json()) as { error: string; issues: Array<{ path: string }> };
      expect(answer.issues.map((issue) => issue.path)).toContain(path);
    }
    expect((await secretsApi.request("PUT", "/secrets/NAME", { value: "" })).status).toBe(422);
  });

  it("stores only an envelope: the row holds no plaintext", async ({ project, secretsApi }) => {
    expect((await secretsApi.request("POST", "/secrets", { name: "STORED", value: TOKEN })).status).toBe(201);
    const db = await getPlatformDb();
    const [row] = await db
      .select()
      .from(projectSecrets)
      .where(and(eq(projectSecrets.projectId, project.projectId), eq(projectSecrets.name, "STORED")));
    expect(row?.valueEncrypted).toMatch(/^v1:[\w-]+:/);
    const everything = JSON.stringify(row);
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(Buffer.from(TOKEN).toString("base64"));
    expect(everything).not.toContain("ExampleToken");
  });

  it("refuses members, keys without secrets.write, other projects' keys and other workspaces", async ({ project, ownerApi, other, admin }) => {
    const member = await createTestUser("member");
    const db = await getPlatformDb();
    await db.insert(memberships).values({ workspaceId: project.workspaceId, userId: member.id, role: "member" });
    const withoutSecrets = await project.keyFor(PERMISSIONS.filter((permission): permission is Permission => permission !== "secrets.write"));
    const otherKey = await other.keyFor(["secrets.write"]);
    const calls: Array<[string, string, unknown]> = [
      ["GET", "/secrets", undefined],
      ["POST", "/secrets", { name: "INTRUDER", value: "x" }],
      ["PUT", "/secrets/STORED", { value: "x" }],
      ["DELETE", "/secrets/STORED", undefined],
    ];
    const asMemberApi = admin.with({ credentials: { cookie: member.cookie } });
    const withoutSecretsApi = ownerApi.with({ credentials: { key: withoutSecrets } });
    const otherKeyApi = ownerApi.with({ credentials: { key: otherKey } });
    const otherAdmin = admin.with({ credentials: { cookie: other.owner.cookie } });
    for (const [method, path, body] of calls) {
      const asMember = await asMemberApi.request(method, path, body);
      expect(asMember.status, `member ${method}`).toBe(403);
      expect(await asMember.text()).not.toContain(TOKEN);
      expect((await withoutSecretsApi.request(method, path, body)).status, `key ${method}`).toBe(403);
      expect((await otherKeyApi.request(method, path, body)).status, `other key ${method}`).toBe(404);
      expect((await otherAdmin.request(method, path, body)).status, `other admin ${method}`).toBe(404);
    }
    // Nothing changed.
    const { data } = (await (await admin.fetch("/secrets")).json()) as { data: Array<{ name: string }> };
    expect(data.map((secret) => secret.name)).toContain("STORED");
    expect(data.map((secret) => secret.name)).not.toContain("INTRUDER");
  });
});

describe("secrets in flows", () => {
  // API_TOKEN is saved before the first test of this group, whichever runs.
  it.beforeAll(({ flows }) => void flows);

  it("sends the real value upstream and shows only the mask in the answer and the execution log", async ({ server, endpointsApi, flows }) => {
    const created = await endpointsApi.request("POST", "/endpoints", flows.callUpstream());
    expect(created.status, await created.clone().text()).toBe(201);
    const definitionText = await (await endpointsApi.fetch(`/endpoints/${((await created.json()) as { id: string }).id}`)).text();
    expect(definitionText).toContain("{{secrets.API_TOKEN}}");
    expect(definitionText).not.toContain(TOKEN);

    const seenBefore = flows.upstream.requests.length;
    const response = await endpointsApi.invoke("call-upstream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "42" }),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const received = flows.upstream.requests.slice(seenBefore);
    expect(received).toHaveLength(1);
    expect(received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(received[0]?.url).toBe(`/echo?key=${encodeURIComponent(TOKEN)}`);
    expect(JSON.parse(received[0]!.body)).toEqual({ token: TOKEN, id: "42" });

    expect(text).not.toContain(TOKEN);
    const answer = JSON.parse(text) as { authorization: string; url: string; body: string };
    expect(answer.authorization).toBe("Bearer [secret:API_TOKEN]");
    expect(answer.url).toBe("/echo?key=[secret:API_TOKEN]");
    expect(answer.body).toContain("[secret:API_TOKEN]");

    await server.drain();
    const executionId = response.headers.get("x-execution-id");
    const log = await endpointsApi.fetch(`/executions/${executionId}`);
    expect(log.status).toBe(200);
    const logText = await log.text();
    expect(logText).not.toContain(TOKEN);
    expect(logText).not.toContain(encodeURIComponent(TOKEN));
    expect(logText).toContain("[secret:API_TOKEN]");
  });

  it("masks test-run outputs, and fails a step that names a deleted secret without revealing anything", async ({ admin, endpointsApi, flows }) => {
    const testRun = await endpointsApi.request("POST", "/endpoints/test-run", { endpoint: flows.callUpstream(), body: { id: "7" } });
    const text = await testRun.text();
    expect(testRun.status, text).toBe(200);
    expect(text).not.toContain(TOKEN);
    const result = JSON.parse(text) as { steps: Array<{ status: string; output: { body: { authorization: string } } }>; response: { body: { authorization: string } } };
    expect(result.steps[0]?.status).toBe("ok");
    expect(result.steps[0]?.output.body.authorization).toBe("Bearer [secret:API_TOKEN]");
    expect(result.response.body.authorization).toBe("Bearer [secret:API_TOKEN]");

    const draft = { ...flows.callUpstream(), steps: [{ ...flows.callUpstream().steps[0], headers: { Authorization: "Bearer {{secrets.DELETED_TOKEN}}" } }] };
    expect((await admin.request("POST", "/secrets", { name: "DELETED_TOKEN", value: "dt_value_that_is_gone_1234" })).status).toBe(201);
    expect((await admin.fetch("/secrets/DELETED_TOKEN", { method: "DELETE" })).status).toBe(204);
    const failed = await endpointsApi.request("POST", "/endpoints/test-run", { endpoint: draft, body: {} });
    const failedText = await failed.text();
    expect(failed.status, failedText).toBe(200);
    expect(failedText).not.toContain("dt_value_that_is_gone_1234");
    expect(failedText).not.toContain(TOKEN);
    const failedRun = JSON.parse(failedText) as { outcome: string; steps: Array<{ status: string; error: string }>; response: { status: number } };
    expect(failedRun.outcome).toBe("failed");
    expect(failedRun.steps[0]?.status).toBe("failed");
    expect(failedRun.steps[0]?.error).toMatch(/secret "DELETED_TOKEN" is not defined in this project/);
    expect(failedRun.response.status).toBe(500);
  });

  it("uses a rotated value on the very next call", async ({ admin, endpointsApi, flows }) => {
    expect((await admin.request("PUT", "/secrets/API_TOKEN", { value: "sk_rotated_now_000000000000aaaa" })).status).toBe(200);
    const seenBefore = flows.upstream.requests.length;
    const response = await endpointsApi.invoke("call-upstream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(flows.upstream.requests[seenBefore]?.headers.authorization).toBe("Bearer sk_rotated_now_000000000000aaaa");
    expect(text).not.toContain("sk_rotated_now_000000000000aaaa");
    expect((await admin.request("PUT", "/secrets/API_TOKEN", { value: TOKEN })).status).toBe(200);
  });

  it("keeps the egress guard when the URL's host comes from a secret", async ({ admin, endpointsApi }) => {
    expect((await admin.request("POST", "/secrets", { name: "METADATA_URL", value: "http://169.254.169.254" })).status).toBe(201);
    const draft = {
      name: "Metadata",
      method: "GET",
      slug: "metadata",
      steps: [{ type: "http", name: "call", url: "{{secrets.METADATA_URL}}/latest/meta-data" }],
      response: { body: "{}" },
    };
    const run = (await (await endpointsApi.request("POST", "/endpoints/test-run", { endpoint: draft })).json()) as {
      outcome: string;
      steps: Array<{ error: string }>;
    };
    expect(run.outcome).toBe("failed");
    expect(run.steps[0]?.error).toMatch(/outbound request refused/);
  });

  it("refuses {{secrets.X}} anywhere a flow could echo it, with the issue's path", async ({ endpointsApi }) => {
    const base = { method: "POST", response: { body: "{}" } };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, slug: "leak-response", response: { body: '{"t": "{{secrets.API_TOKEN}}"}' } }, "response.body"],
      [{ ...base, slug: "leak-header", response: { body: "{}", headers: { "x-token": "{{secrets.API_TOKEN}}" } } }, "response.headers.x-token"],
      [{ ...base, slug: "leak-transform", steps: [{ type: "transform", name: "t", expression: "'{{secrets.API_TOKEN}}'" }] }, "steps.0.expression"],
      [{ ...base, slug: "leak-condition", steps: [{ type: "condition", checks: [{ left: "{{secrets.API_TOKEN}}", operator: "equals", right: "x" }] }] }, "steps.0.checks.0.left"],
      [{ ...base, slug: "leak-create", steps: [{ type: "create", schema: "tickets", values: { title: "{{ secrets.API_TOKEN }}" } }] }, "steps.0.values.title"],
      [{ ...base, slug: "leak-filter", steps: [{ type: "query", schema: "tickets", filters: "title={{secrets.API_TOKEN}}" }] }, "steps.0.filters"],
    ];
    for (const [definition, path] of cases) {
      const response = await endpointsApi.request("POST", "/endpoints", { name: String(definition.slug), ...definition });
      expect(response.status, path).toBe(422);
      const answer = (await response.json()) as { issues: Array<{ path: string; message: string }> };
      expect(answer.issues.find((issue) => issue.path === path)?.message, path).toMatch(/can only be used in the URL, headers and body/);
    }
    const testRun = await endpointsApi.request("POST", "/endpoints/test-run", { endpoint: cases[0]![0] });
    expect(testRun.status).toBe(422);

    // A caller must not choose where a secret is sent.
    const redirected = await endpointsApi.request("POST", "/endpoints", {
      ...base,
      name: "Caller picks the host",
      slug: "leak-host",
      steps: [{ type: "http", url: "https://{{body.host}}/collect", headers: { authorization: "Bearer {{secrets.API_TOKEN}}" } }],
    });
    expect(redirected.status).toBe(422);
    const redirectedAnswer = (await redirected.json()) as { issues: Array<{ path: string; message: string }> };
    expect(redirectedAnswer.issues.find((issue) => issue.path === "steps.0.url")?.message).toMatch(/must not take its URL's scheme, host or port/);
  });

  it("exports placeholders and secret names, never values; an import names the secrets the target lacks", async ({ server, other, endpointsApi }) => {
    const exported = await endpointsApi.fetch("/endpoints/export");
    const exportText = await exported.text();
    expect(exported.status).toBe(200);
    expect(exportText).not.toContain(TOKEN);
    expect(exportText).toContain("{{secrets.API_TOKEN}}");
    const document = JSON.parse(exportText) as { secrets: string[]; endpoints: unknown[] };
    expect(document.secrets).toEqual(["API_TOKEN"]);

    const importApi = projectApi(server, other, { key: await other.keyFor(["endpoints.create", "endpoints.update"]) });
    const imported = await importApi.request("POST", "/endpoints/import", document);
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect(await imported.json()).toMatchObject({ created: document.endpoints.length, secrets: { required: ["API_TOKEN"], missing: ["API_TOKEN"] } });

    await projectApi(server, other, { cookie: other.owner.cookie }, { origin: server.url }).request("POST", "/secrets", { name: "API_TOKEN", value: "other-project-value" });
    const again = await importApi.request("POST", "/endpoints/import", document);
    expect(await again.json()).toMatchObject({ secrets: { required: ["API_TOKEN"], missing: [] } });
  });
});

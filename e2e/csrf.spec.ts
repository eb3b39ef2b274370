import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { createProject, createWorkspace, signUp, uniqueEmail } from "./helpers";

/**
 * CSRF as reported (issue 9, item 3): a page on another port of the same host is same-site, so the
 * dashboard's SameSite=Lax cookie rides along with its form posts. It auto-submits an
 * `enctype=text/plain` form whose body is JSON to the management API.
 */
let attacker: Server;
let attackerOrigin: string;
let attackPage = "";

test.beforeAll(async () => {
  attacker = createServer((_, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(attackPage);
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  attackerOrigin = `http://localhost:${(attacker.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => attacker.close(resolve));
});

function autoSubmittingForm(action: string, json: Record<string, unknown>): string {
  // text/plain sends `name=value`: the JSON is cut inside the string `pad`, whose value becomes "=".
  const text = JSON.stringify({ ...json, pad: "" });
  const [name, value] = [text.slice(0, -2), text.slice(-2)];
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  return `<!doctype html><title>win a prize</title>
<form method="post" enctype="text/plain" action="${escape(action)}"><input name="${escape(name)}" value="${escape(value)}"></form>
<script>document.forms[0].submit()</script>`;
}

test("a same-site page cannot use the dashboard session to create a key or a public endpoint", async ({ page, baseURL }) => {
  await signUp(page, { email: uniqueEmail("csrf-victim") });
  await createWorkspace(page, "Victim workspace");
  const projectId = await createProject(page, "Victim project");
  const api = `${baseURL}/api/projects/${projectId}`;

  for (const [path, json] of [
    ["/api-keys", { name: "stolen", permissions: ["records.read", "records.delete"] }],
    ["/endpoints", { name: "Leak", method: "GET", slug: "leak", auth: "public", steps: [], response: { body: "{}" } }],
  ] as const) {
    attackPage = autoSubmittingForm(`${api}${path}`, json);
    const answer = page.waitForResponse((response) => response.url() === `${api}${path}` && response.request().method() === "POST");
    await page.goto(`${attackerOrigin}/`);
    const response = await answer;
    expect(response.status(), path).toBe(403);
  }

  // The session is still valid and was sent: the same browser reads the project, and nothing was created.
  const keys = await page.request.get(`${api}/api-keys`);
  expect(keys.status()).toBe(200);
  expect(((await keys.json()) as { data: unknown[] }).data).toEqual([]);
  const endpoints = await page.request.get(`${api}/endpoints`);
  expect(((await endpoints.json()) as { data: unknown[] }).data).toEqual([]);
});

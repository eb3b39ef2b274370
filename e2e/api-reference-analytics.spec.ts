import { expect, test, type APIRequestContext } from "@playwright/test";
import { createProject, createWorkspace, screenshot, signUp, uniqueEmail } from "./helpers";

/**
 * Issue 14 (an API reference per project) and issue 13 (analytics per endpoint), as an owner sees
 * them: a project with two schemas and three endpoints lists each operation on its API reference
 * page, and the calls of an endpoint, cache hits included, show on its Analytics tab once the
 * counters are flushed (every 10 s). axe checks both pages (screenshot()).
 */

async function api(request: APIRequestContext, origin: string, method: string, path: string, data?: unknown) {
  const response = await request.fetch(path, { method, headers: { origin, "content-type": "application/json" }, data: data === undefined ? undefined : JSON.stringify(data) });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as { id: string };
}

test("the API reference lists every operation and the Analytics tab counts an endpoint's calls and cache hits", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = baseURL!;
  await signUp(page, { email: uniqueEmail("reference") });
  await createWorkspace(page, "Reference workspace");
  const projectId = await createProject(page, "Reference project");
  const base = `/api/projects/${projectId}`;

  await api(page.request, origin, "POST", `${base}/schemas`, { name: "posts", kind: "collection", fields: [{ name: "title", type: "string", required: true }] });
  await api(page.request, origin, "POST", `${base}/schemas`, { name: "authors", kind: "collection", fields: [{ name: "name", type: "string" }] });
  const endpoint = (slug: string, method: string, extra: Record<string, unknown> = {}) => ({
    name: `Endpoint ${slug}`,
    method,
    slug,
    auth: "public",
    steps: [],
    response: { status: 200, contentType: "application/json", body: '{"ok": true}', headers: {} },
    ...extra,
  });
  const cached = await api(page.request, origin, "POST", `${base}/endpoints`, endpoint("latest-posts", "GET", { cacheSeconds: 60 }));
  await api(page.request, origin, "POST", `${base}/endpoints`, endpoint("new-post", "POST"));
  await api(page.request, origin, "POST", `${base}/endpoints`, endpoint("authors", "GET", { auth: "api_key" }));

  await page.goto(`/projects/${projectId}/api-reference`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("API reference");
  // Paths are relative to the document's server, the project's API base.
  for (const operation of ["GET /fn/latest-posts", "POST /fn/new-post", "GET /fn/authors", "GET /records/posts", "POST /records/authors"]) {
    const [method, path] = operation.split(" ");
    await expect(
      page
        .getByRole("heading", { level: 3 })
        .filter({ hasText: method! })
        .filter({ has: page.locator("code", { hasText: new RegExp(`^${path!}$`) }) }),
    ).toHaveCount(1);
  }
  await expect(page.getByRole("link", { name: /Download openapi\.json/ })).toBeVisible();
  await screenshot(page, "api-reference");

  // Four calls of the cached endpoint: one miss, three hits.
  for (let call = 0; call < 4; call++) {
    const answer = await page.request.get(`${base}/fn/latest-posts`);
    expect(answer.status()).toBe(200);
  }
  const analytics = `/projects/${projectId}/endpoints/${cached.id}/analytics?range=1h`;
  await expect(async () => {
    await page.goto(analytics);
    await expect(page.getByText("3 of 4 calls")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000, intervals: [2_000] });
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await screenshot(page, "endpoint-analytics");
});

import { statSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Response } from "@playwright/test";
import { createWorkspace, signUp, uniqueEmail } from "./helpers";

/**
 * The production server answers the build's scripts and stylesheets with the brotli copies
 * `npm run build` wrote (server/serve-precompressed-asset.ts) to a browser that accepts them, and
 * the pages they make still work: here Chromium signs up and lands on a hydrated page.
 */
test("the dashboard's scripts and stylesheets arrive as the build's brotli copies, and the pages work", async ({ page }) => {
  const assets: Response[] = [];
  page.on("response", (response) => {
    if (/^\/_next\/static\/.+\.(js|css)$/.test(new URL(response.url()).pathname)) assets.push(response);
  });
  await signUp(page, { email: uniqueEmail("assets") });
  await expect(page.getByRole("heading", { name: "Workspaces" })).toBeVisible();
  await createWorkspace(page, "Brotli workspace");
  await expect(page.getByText("No projects yet")).toBeVisible();

  expect(assets.length).toBeGreaterThan(3);
  const notBrotli: string[] = [];
  for (const response of assets) {
    const pathname = new URL(response.url()).pathname;
    // Files under a kilobyte get no copy (lib/http/precompress-static-assets.ts).
    if (statSync(join(".next", pathname.slice("/_next/".length))).size < 1024) continue;
    if (response.headers()["content-encoding"] !== "br") notBrotli.push(`${pathname}: ${response.headers()["content-encoding"]}`);
  }
  expect(notBrotli).toEqual([]);
});

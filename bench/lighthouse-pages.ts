/**
 * Lighthouse on the dashboard's measured pages (issue 13, item 9), against a running production
 * server: `npx tsx bench/lighthouse-pages.ts http://127.0.0.1:3200 [--preset desktop] [--runs 3]`.
 *
 * It signs up a fresh owner in Debian's Chromium (playwright-core), makes a project with two related
 * collections, an endpoint whose flow has a condition, a query with an expansion and a transform,
 * calls it (an execution to open, analytics to chart), then runs `npx lighthouse@13` on the sign-in
 * page, the project overview, the endpoints list, the endpoint editor, the execution detail and the
 * endpoint's Analytics tab, signed-in pages with the session cookie in `--extra-headers`. It prints
 * each page's category scores and total blocking time, the median of `--runs` runs per page.
 * Lighthouse's default (mobile, simulated 4× CPU slowdown) unless `--preset desktop`; `--pages editor,list`
 * measures only the pages whose names contain those words; `--report-dir D`
 * keeps each run's JSON report there (scripts' boot-up times, main-thread work). Pin the server
 * and this script to a quiet core (`taskset -c 1`) when other work shares the machine.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { chromium, type Page } from "@playwright/test";

const run = promisify(execFile);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync";

interface PageScores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  totalBlockingTimeMs: number;
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
}

async function managementCall(page: Page, origin: string, method: string, path: string, data?: unknown): Promise<{ id: string }> {
  const response = await page.request.fetch(path, { method, headers: { origin, "content-type": "application/json" }, data: data === undefined ? undefined : JSON.stringify(data) });
  if (response.status() >= 300) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

/** A signed-in owner with a project worth measuring; answers the page paths and the session cookie. */
async function seedProject(origin: string): Promise<{ paths: Record<string, string>; cookie: string }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS.split(" ").filter((flag) => !flag.startsWith("--headless")) });
  try {
    const context = await browser.newContext({ baseURL: origin });
    const page = await context.newPage();
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(`lighthouse-${Date.now().toString(36)}@example.com`);
    await page.getByLabel("Password").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/workspaces$/);
    await page.getByLabel("Workspace name").fill("Measured workspace");
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.waitForURL(/\/workspaces\/ws_[0-9A-Za-z]+$/);
    await page.getByRole("button", { name: "New project" }).click();
    const dialog = page.getByRole("dialog", { name: "Create a project" });
    await dialog.getByLabel("Project name").fill("Measured project");
    await dialog.getByRole("button", { name: "Create project" }).click();
    await page.waitForURL(/\/projects\/prj_[0-9a-z]+$/);
    const projectId = page.url().split("/").pop()!;
    const base = `/api/projects/${projectId}`;

    await managementCall(page, origin, "POST", `${base}/schemas`, { name: "customers", kind: "collection", fields: [{ name: "name", type: "string", required: true }] });
    await managementCall(page, origin, "POST", `${base}/schemas`, {
      name: "tickets",
      kind: "collection",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "status", type: "enum", values: ["open", "closed"] },
        { name: "customer", type: "relation", target: "customers", many: false },
      ],
    });
    const customer = await managementCall(page, origin, "POST", `${base}/records/customers`, { name: "Acme Corp" });
    for (const [title, status] of [
      ["Printer on fire", "open"],
      ["Login fails", "open"],
      ["Invoice typo", "closed"],
    ]) {
      await managementCall(page, origin, "POST", `${base}/records/tickets`, { title, status, customer: customer.id });
    }
    const endpoint = await managementCall(page, origin, "POST", `${base}/endpoints`, {
      name: "Ticket summary",
      method: "GET",
      slug: "ticket-summary",
      auth: "public",
      steps: [
        {
          type: "condition",
          name: "allowed",
          checks: [{ left: "{{query.status}}", operator: "not_equals", right: "secret" }],
          combinator: "all",
          stopStatus: 403,
          stopBody: '{"error": "no"}',
        },
        { type: "query", name: "tickets", schema: "tickets", filters: "", limit: 50, sort: "-createdAt", expand: ["customer"] },
        { type: "transform", name: "summary", expression: "{open: length(steps.tickets[?status=='open']), customers: steps.tickets[].expand.customer.name}" },
      ],
      response: { status: 200, contentType: "application/json", body: "{{steps.summary}}", headers: {} },
    });
    for (let call = 0; call < 5; call++) await page.request.get(`${base}/fn/ticket-summary`);
    const executions = await page.request.get(`${base}/endpoints/${endpoint.id}/executions`);
    const listed = (await executions.json()) as { data: Array<{ id: string }> };
    const executionId = listed.data[0]?.id;
    if (!executionId) throw new Error(`no execution listed: ${JSON.stringify(listed).slice(0, 300)}`);

    const cookies = await context.cookies();
    const cookie = cookies.map((entry) => `${entry.name}=${entry.value}`).join("; ");
    const project = `/projects/${projectId}`;
    return {
      cookie,
      paths: {
        "Sign-in": "/sign-in",
        "Project overview": project,
        "Endpoints list": `${project}/endpoints`,
        "Endpoint editor": `${project}/endpoints/${endpoint.id}`,
        "Execution detail": `${project}/executions/${executionId}`,
        "Endpoint analytics": `${project}/endpoints/${endpoint.id}/analytics`,
      },
    };
  } finally {
    await browser.close();
  }
}

async function lighthouse(url: string, cookie: string | null, preset: string | undefined, keptReport: string | undefined): Promise<PageScores> {
  const folder = mkdtempSync(join(tmpdir(), "lighthouse-"));
  const report = keptReport ?? join(folder, "report.json");
  const args = ["--yes", "lighthouse@13", url, "--quiet", "--output=json", `--output-path=${report}`, `--chrome-flags=${CHROME_FLAGS}`];
  if (cookie) args.push(`--extra-headers=${JSON.stringify({ cookie })}`);
  if (preset) args.push(`--preset=${preset}`);
  try {
    await run("npx", args, { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024 });
    const result = JSON.parse(readFileSync(report, "utf8")) as {
      finalDisplayedUrl: string;
      categories: Record<string, { score: number }>;
      audits: Record<string, { numericValue?: number }>;
    };
    if (cookie && result.finalDisplayedUrl.includes("/sign-in")) throw new Error(`${url} redirected to sign-in: the session cookie was not taken`);
    const score = (name: string) => Math.round((result.categories[name]?.score ?? 0) * 100);
    return {
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      seo: score("seo"),
      totalBlockingTimeMs: Math.round(result.audits["total-blocking-time"]?.numericValue ?? 0),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const origin = process.argv[2];
  if (!origin?.startsWith("http")) {
    console.error("usage: npx tsx bench/lighthouse-pages.ts <origin of a running production server> [--preset desktop] [--runs N]");
    process.exit(2);
  }
  const preset = argument("--preset");
  const runs = Number(argument("--runs") ?? 3);
  const reportDir = argument("--report-dir");
  if (reportDir) mkdirSync(reportDir, { recursive: true });
  const only = argument("--pages")?.split(",");
  const seeded = await seedProject(origin);
  const { cookie } = seeded;
  const paths = only ? Object.fromEntries(Object.entries(seeded.paths).filter(([label]) => only.some((name) => label.toLowerCase().includes(name.toLowerCase())))) : seeded.paths;
  console.log(`Lighthouse 13, ${preset ?? "mobile (default)"} preset, median of ${runs} runs per page`);
  console.log("| Page | Performance (runs) | TBT ms (median) | Accessibility | Best practices | SEO |");
  console.log("|---|---|---|---|---|---|");
  for (const [label, path] of Object.entries(paths)) {
    const measured: PageScores[] = [];
    for (let attempt = 0; attempt < runs; attempt++) {
      const keptReport = reportDir ? join(reportDir, `${label.toLowerCase().replaceAll(" ", "-")}-${attempt + 1}.json`) : undefined;
      measured.push(await lighthouse(`${origin}${path}`, path === "/sign-in" ? null : cookie, preset, keptReport));
    }
    const performance = measured.map((scores) => scores.performance);
    console.log(
      `| ${label} | ${median(performance)} (${performance.join(", ")}) | ${median(measured.map((scores) => scores.totalBlockingTimeMs))} | ${median(measured.map((scores) => scores.accessibility))} | ${median(measured.map((scores) => scores.bestPractices))} | ${median(measured.map((scores) => scores.seo))} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

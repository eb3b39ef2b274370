import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests of the dashboard against the production server (`npm start` after `npm run build`)
 * in Debian's Chromium. With DATABASE_URL (CI: flowpoint_e2e) the platform database is PostgreSQL;
 * without it, PGlite in a fresh .data/e2e. Screenshots of every screen go to e2e/artifacts/.
 */
// E2E_PORT lets a second run share the machine with CI's (which keeps 3100).
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://localhost:${PORT}`;
const E2E_DATA_DIR = ".data/e2e";

const serverEnv: Record<string, string> = {
  NODE_ENV: "production",
  PORT: String(PORT),
  NEXTAUTH_URL: BASE_URL,
  APP_URL: BASE_URL,
  NEXTAUTH_SECRET: "flowpoint-e2e-session-secret-not-for-production",
  ENCRYPTION_KEYS: "e2e:Zmxvd3BvaW50LWUyZS1maXhlZC10ZXN0LWtleS0zMmI=",
  NEXT_TELEMETRY_DISABLED: "1",
  // Platform mail must land in the local mailbox, where the invitation test reads it.
  SMTP_URL: "",
  RESEND_API_KEY: "",
  MAIL_FROM: "",
  GITHUB_ID: "",
  GITHUB_SECRET: "",
};
// Customer databases on loopback are refused unless allow-listed: port 1 (nothing listens: "refused")
// and, when there is one, the PostgreSQL server of the run (a real successful connection test).
const allowedHosts = ["127.0.0.1:1"];
if (process.env.DATABASE_URL) {
  const url = new URL(process.env.DATABASE_URL);
  allowedHosts.push(`${url.hostname}:${url.port || "5432"}`);
}
serverEnv.OUTBOUND_ALLOWED_HOSTS = allowedHosts.join(",");
if (process.env.DATABASE_URL) serverEnv.DATABASE_URL = process.env.DATABASE_URL;
else serverEnv.DATA_DIR = E2E_DATA_DIR;
if (process.env.REDIS_URL) serverEnv.REDIS_URL = process.env.REDIS_URL;
// Runs share the machine's Redis: a fresh prefix keeps one run's sign-up and sign-in counters out of the next.
serverEnv.KV_KEY_PREFIX = `e2e-${Date.now().toString(36)}:`;

// Playwright starts the web server before any globalSetup, so the embedded data directory is
// cleared by the server's own command, before it opens the directory.
const clearDataDir = process.env.DATABASE_URL ? "" : `node -e "require('fs').rmSync('${E2E_DATA_DIR}',{recursive:true,force:true})" && `;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: BASE_URL,
    viewport: { width: 1280, height: 800 },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: `${clearDataDir}npm start`,
    url: `${BASE_URL}/`,
    env: serverEnv,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  },
});

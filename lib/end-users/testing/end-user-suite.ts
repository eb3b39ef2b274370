import { resetConfigForTests } from "@/lib/config";
import { closeKv } from "@/lib/kv/get-kv";
import { startTestSmtpServer, type ReceivedMail, type TestSmtpServer } from "@/lib/mail/test-smtp-server";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { updateProject } from "@/lib/projects/update-project";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import type { RecordStore } from "@/lib/records/record-store";
import { createScratchDatabase, type ScratchDatabase } from "@/lib/records/testing/scratch-postgres";
import { createSchema } from "@/lib/schemas/create-schema";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { settleAfterResponseWork } from "@/lib/http/after-response";

/**
 * Shared set-up of the end-user auth route tests: the app's routes over real HTTP, a real SMTP
 * server the projects send through, and (with DATABASE_URL) the project's customer database on a
 * scratch PostgreSQL database instead of the embedded one. The client IP is read from a test
 * header through TRUSTED_PROXY, so tests can speak for several clients.
 */
export const CLIENT_IP_HEADER = "x-test-client-ip";
export const PASSWORD = "correct horse battery";

export interface EndUserProject {
  fixture: ProjectFixture;
  projectId: string;
  store: RecordStore;
  /** `${server}/api/projects/<id>/auth/<schema>/<action>` */
  url(action: string, schema?: string): string;
}

export interface EndUserSuite {
  server: RouteServer;
  smtp: TestSmtpServer;
  /** The backend the customer databases of this suite run on. */
  backend: "pglite" | "postgres";
  createProject(options?: { mail?: boolean; smtpPort?: number; schemas?: unknown[] }): Promise<EndUserProject>;
  close(): Promise<void>;
}

/** The auth schema most tests use: two own fields, one of them required. */
export const CUSTOMERS_SCHEMA = {
  name: "customers",
  kind: "auth",
  fields: [
    { name: "displayName", type: "string", required: true, max: 80 },
    { name: "plan", type: "enum", values: ["free", "pro"], default: "free" },
  ],
};

export async function startEndUserSuite(options: { extraAllowedHosts?: string[] } = {}): Promise<EndUserSuite> {
  const smtp = await startTestSmtpServer();
  const databaseUrl = process.env.DATABASE_URL;
  const allowed = [`127.0.0.1:${smtp.port}`, ...(options.extraAllowedHosts ?? [])];
  if (databaseUrl) allowed.push(new URL(databaseUrl).host);
  process.env.OUTBOUND_ALLOWED_HOSTS = allowed.join(",");
  process.env.TRUSTED_PROXY = CLIENT_IP_HEADER;
  resetConfigForTests();
  const server = await startRouteServer();
  const scratch: ScratchDatabase[] = [];

  return {
    server,
    smtp,
    backend: databaseUrl ? "postgres" : "pglite",
    async createProject(projectOptions = {}) {
      const fixture = await createProjectFixture("End users");
      const input: Record<string, unknown> = {};
      if (projectOptions.mail !== false) {
        input.mail = { host: "127.0.0.1", port: projectOptions.smtpPort ?? smtp.port, secure: false, from: "Shop <no-reply@shop.example>" };
      }
      if (databaseUrl) {
        const database = await createScratchDatabase(databaseUrl, "end_users");
        scratch.push(database);
        input.database = { kind: "postgres", url: database.url };
      }
      if (Object.keys(input).length > 0) await updateProject({ projectId: fixture.projectId, input });
      const store = await getProjectRecordStore({ projectId: fixture.projectId });
      for (const definition of projectOptions.schemas ?? [CUSTOMERS_SCHEMA]) {
        await createSchema({ projectId: fixture.projectId, definition, store });
      }
      return {
        fixture,
        projectId: fixture.projectId,
        store,
        url: (action, schema = "customers") => `${server.url}/api/projects/${fixture.projectId}/auth/${schema}/${action}`,
      };
    },
    async close() {
      await settleAfterResponseWork();
      await server.close();
      await smtp.close();
      await closeAllRecordStores();
      for (const database of scratch) await database.drop();
      await closeKv();
      await closePlatformDb();
    },
  };
}

/** POSTs JSON from a client IP; answers the status, the raw text and the parsed body. */
export async function postJson(url: string, body: unknown, options: { ip?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", [CLIENT_IP_HEADER]: options.ip ?? "198.51.100.1", ...options.headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** GET me with a bearer token. */
export async function getMe(url: string, token: string | null, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** The single-use token a verification or reset mail carries (from the text part). */
export function tokenFromMail(mail: ReceivedMail): string {
  const match = /Or use this code: ([A-Za-z0-9_-]{43})/.exec(mail.text ?? "");
  if (!match?.[1]) throw new Error(`no token in the mail: ${mail.text ?? mail.raw}`);
  return match[1];
}

/** Waits for the next mail to `to` that arrived after `seen` messages. */
export async function nextMailTo(smtp: TestSmtpServer, to: string, seen: number): Promise<ReceivedMail> {
  for (let count = seen + 1; ; count++) {
    const messages = await smtp.waitForMessages(count);
    const found = messages.slice(seen).find((mail) => mail.envelope.to.includes(to));
    if (found) return found;
  }
}

/** A unique address for one test. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@customer.example`;
}

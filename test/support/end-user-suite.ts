import { test } from "vitest";
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
import { projectApi, type ApiAnswer, type ProjectApi } from "@/test/support/project-api";

/**
 * Shared set-up of the end-user auth route tests: the app's routes over real HTTP, a real SMTP
 * server the projects send through, and (with DATABASE_URL) the project's customer database on a
 * scratch PostgreSQL database instead of the embedded one. The client IP is read from a test
 * header through TRUSTED_PROXY, so tests can speak for several clients.
 */
export const CLIENT_IP_HEADER = "x-test-client-ip";
export const PASSWORD = "correct horse battery";

/** An end user's calls to the auth routes of one project (`/api/projects/:id/auth/:schema/…`), without credentials. */
export interface EndUserCalls {
  /** POSTs JSON (an object, or a string sent as is) to an action, from a client IP (198.51.100.1 unless told). */
  post(action: string, body: unknown, options?: { schema?: string; ip?: string; headers?: Record<string, string> }): Promise<ApiAnswer>;
  /** GET me, with a bearer token (`null`: none). */
  me(token: string | null, options?: { schema?: string; headers?: Record<string, string> }): Promise<ApiAnswer>;
}

/** The end-user calls through a project client (`api`: that project's, or any other id's). */
export function endUserCalls(api: ProjectApi): EndUserCalls {
  return {
    post: (action, body, options = {}) =>
      api.call("POST", `/auth/${options.schema ?? "customers"}/${action}`, body, { [CLIENT_IP_HEADER]: options.ip ?? "198.51.100.1", ...options.headers }),
    me: (token, options = {}) =>
      api.call("GET", `/auth/${options.schema ?? "customers"}/me`, undefined, { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...options.headers }),
  };
}

export interface EndUserProject extends EndUserCalls {
  fixture: ProjectFixture;
  projectId: string;
  store: RecordStore;
  /** The project's API as end users call it: no credentials. */
  api: ProjectApi;
}

/** What an end-user test works with: the suite and the file's project (endUserTest). */
export interface EndUserContext {
  suite: EndUserSuite;
  project: EndUserProject;
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

/**
 * The end-user suites' `test`: `suite`, started on first use and closed when the file ends, and
 * `project`, a project of it with `schemas` (the customers schema by default). `extraAllowedHosts`
 * pass the outbound guard besides the suite's SMTP server and database.
 */
export function endUserTest(options: { extraAllowedHosts?: string[]; schemas?: unknown[] } = {}) {
  return test
    .extend("suite", { scope: "file" }, async ({}, { onCleanup }) => {
      const suite = await startEndUserSuite(options);
      onCleanup(() => suite.close());
      return suite;
    })
    .extend("project", { scope: "file" }, ({ suite }) => suite.createProject({ schemas: options.schemas }));
}

async function startEndUserSuite(options: { extraAllowedHosts?: string[] } = {}): Promise<EndUserSuite> {
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
      const api = projectApi(server, fixture, "anonymous");
      return { fixture, projectId: fixture.projectId, store, api, ...endUserCalls(api) };
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

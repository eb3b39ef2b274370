import { rm } from "node:fs/promises";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import type { Permission } from "@/lib/auth/permissions";
import { createProject } from "@/lib/projects/create-project";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createScratchDatabase } from "@/lib/records/testing/scratch-postgres";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { createTestUser } from "@/test/fixtures";
import type { createDatabaseHostAllowance } from "@/test/support/database-host-allowance";

/** A project on one customer database backend, with a key maker and a way to remove its database. */
export interface ImportBackendProject {
  projectId: string;
  keyFor(permissions: Permission[]): Promise<string>;
  cleanup(): Promise<void>;
}

export interface ImportBackend {
  name: string;
  open(): Promise<ImportBackendProject>;
}

async function createBackendProject(database: { kind: "local" } | { kind: "postgres"; url: string }): Promise<Omit<ImportBackendProject, "cleanup">> {
  const owner = await createTestUser();
  const workspace = await createWorkspace({ userId: owner.id, name: "Import workspace" });
  const project = await createProject({ workspaceId: workspace.id, actorId: owner.id, input: { name: "Import", database } });
  return {
    projectId: project.id,
    keyFor: async (permissions) => (await createApiKey({ projectId: project.id, input: { name: "import", permissions } })).key,
  };
}

/**
 * The customer database backends of this run for the import route tests: the built-in PGlite store
 * always, a fresh PostgreSQL database (`flowpoint_h_import_rt_…`, dropped afterwards) when
 * DATABASE_URL is set.
 */
export function importBackends(databaseHosts: ReturnType<typeof createDatabaseHostAllowance>): ImportBackend[] {
  const backends: ImportBackend[] = [
    {
      name: "PGlite",
      async open() {
        const project = await createBackendProject({ kind: "local" });
        return {
          ...project,
          async cleanup() {
            await (await getProjectRecordStore({ projectId: project.projectId })).close();
            await rm(path.resolve(getConfig().DATA_DIR, "projects", project.projectId), { recursive: true, force: true });
          },
        };
      },
    },
  ];
  if (process.env.DATABASE_URL) {
    backends.push({
      name: "PostgreSQL",
      async open() {
        const scratch = await createScratchDatabase(process.env.DATABASE_URL!, "flowpoint_h_import_rt");
        databaseHosts.allow(scratch.url);
        const project = await createBackendProject({ kind: "postgres", url: scratch.url });
        return {
          ...project,
          async cleanup() {
            await (await getProjectRecordStore({ projectId: project.projectId })).close();
            await scratch.drop();
          },
        };
      },
    });
  }
  return backends;
}

/** A request body that arrives in chunks of `chunkBytes` (cutting lines and characters), as an upload does. */
export function chunkedBody(text: string, chunkBytes = 1000): ReadableStream<Uint8Array> {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(bytes.subarray(offset, (offset += chunkBytes))));
    },
  });
}

export interface ImportAnswer {
  status: number;
  body: {
    imported?: number;
    failedCount?: number;
    failed?: Array<{ line: number; issues: Array<{ path: string; message: string }> }>;
    error?: string;
    issues?: Array<{ path: string; message: string }>;
  };
}

/** POST /records/:schema/import with a streamed NDJSON body. */
export async function postImport(
  serverUrl: string,
  projectId: string,
  key: string,
  schema: string,
  text: string,
  options: { contentType?: string; chunkBytes?: number; query?: string } = {},
): Promise<ImportAnswer> {
  const response = await fetch(`${serverUrl}/api/projects/${projectId}/records/${schema}/import${options.query ?? ""}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": options.contentType ?? "application/x-ndjson" },
    body: chunkedBody(text, options.chunkBytes),
    duplex: "half",
  } as RequestInit);
  const answer = await response.text();
  return { status: response.status, body: answer ? (JSON.parse(answer) as ImportAnswer["body"]) : {} };
}

export const ndjson = (lines: unknown[]): string => lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n");

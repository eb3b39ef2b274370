import { projectBackends, type BackendProject } from "@/test/support/backend-projects";
import type { createDatabaseHostAllowance } from "@/test/support/database-host-allowance";

/** A project on one customer database backend, with a key maker and a way to remove its database. */
export type ImportBackendProject = BackendProject;

export interface ImportBackend {
  name: string;
  open(): Promise<ImportBackendProject>;
}

/**
 * The customer database backends of this run for the import route tests (test/support/backend-projects.ts):
 * the built-in PGlite store always, a fresh PostgreSQL database (`flowpoint_h_import_rt_…`, dropped
 * afterwards) when DATABASE_URL is set.
 */
export function importBackends(databaseHosts: ReturnType<typeof createDatabaseHostAllowance>): ImportBackend[] {
  return projectBackends({ label: "Import", databaseLabel: "flowpoint_h_import_rt", databaseHosts, kinds: ["local", "postgres"] }).flatMap((backend) =>
    backend.open ? [{ name: backend.name, open: backend.open }] : [],
  );
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

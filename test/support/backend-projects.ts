import { rm } from "node:fs/promises";
import path from "node:path";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import type { Permission } from "@/lib/auth/permissions";
import { getConfig } from "@/lib/config";
import { createProject } from "@/lib/projects/create-project";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import type { RecordStoreTarget } from "@/lib/records/get-record-store";
import { customerDatabaseBackends, type CustomerDatabaseKind } from "@/lib/records/testing/customer-databases";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { createTestUser } from "@/test/fixtures";
import type { createDatabaseHostAllowance } from "@/test/support/database-host-allowance";

/** A project whose customer database is on one backend, with a key maker and a way to remove its database. */
export interface BackendProject {
  projectId: string;
  /** Where the project's records are stored. */
  target: RecordStoreTarget;
  keyFor(permissions: Permission[]): Promise<string>;
  cleanup(): Promise<void>;
}

export interface ProjectBackend {
  name: string;
  /** Absent where the backend's variable is not set. */
  open?: () => Promise<BackendProject>;
  /** The variable that is not set, where `open` is absent. */
  skipped?: string;
}

async function createBackendProject(label: string, database: { kind: "local" } | { kind: "postgres" | "mongodb"; url: string }) {
  const owner = await createTestUser();
  const workspace = await createWorkspace({ userId: owner.id, name: `${label} workspace` });
  const project = await createProject({ workspaceId: workspace.id, actorId: owner.id, input: { name: label, database } });
  return {
    projectId: project.id,
    keyFor: async (permissions: Permission[]) => (await createApiKey({ projectId: project.id, input: { name: label, permissions } })).key,
  };
}

/**
 * The customer database backends of this run (lib/records/testing/customer-databases.ts) as project
 * makers for route suites: each `open()` makes a project on a fresh database of that backend (named
 * `<databaseLabel>_…`, dropped by `cleanup()`), whose host `databaseHosts` lets through the outbound
 * guard. `kinds` limits the backends (all by default).
 */
export function projectBackends(options: {
  label: string;
  databaseLabel: string;
  databaseHosts: ReturnType<typeof createDatabaseHostAllowance>;
  kinds?: CustomerDatabaseKind[];
}): ProjectBackend[] {
  return customerDatabaseBackends()
    .filter((backend) => !options.kinds || options.kinds.includes(backend.kind))
    .map((backend): ProjectBackend => {
      if (backend.kind === "local") {
        return {
          name: backend.name,
          async open() {
            const project = await createBackendProject(options.label, { kind: "local" });
            return {
              ...project,
              target: { projectId: project.projectId, kind: "local" },
              async cleanup() {
                await (await getProjectRecordStore({ projectId: project.projectId })).close();
                await rm(path.resolve(getConfig().DATA_DIR, "projects", project.projectId), { recursive: true, force: true });
              },
            };
          },
        };
      }
      const { createDatabase, kind } = backend;
      if (!createDatabase) return { name: backend.name, skipped: backend.variable };
      return {
        name: backend.name,
        async open() {
          const database = await createDatabase(options.databaseLabel);
          options.databaseHosts.allow(database.url);
          const project = await createBackendProject(options.label, { kind, url: database.url });
          return {
            ...project,
            target: { projectId: project.projectId, kind, url: database.url },
            async cleanup() {
              await (await getProjectRecordStore({ projectId: project.projectId })).close();
              await database.drop();
            },
          };
        },
      };
    });
}

/**
 * For a file fixture of a suite that runs on every backend (`routeTest.extend(name, { scope: "file" }, …)`):
 * answers `(backend) => its project`, opened and made ready by `prepare` on first use and kept for the
 * file; when the file ends, every project opened is removed and `databaseHosts` put back.
 */
export function backendProjectsOnce<T>(
  prepare: (project: BackendProject) => Promise<T>,
  options: { onCleanup: (cleanup: () => Promise<void>) => void; databaseHosts: { restore(): void } },
): (backend: { name: string; open: () => Promise<BackendProject> }) => Promise<BackendProject & T> {
  const opened = new Map<string, Promise<BackendProject & T>>();
  options.onCleanup(async () => {
    for (const project of opened.values()) await (await project).cleanup();
    options.databaseHosts.restore();
  });
  return (backend) => {
    if (!opened.has(backend.name))
      opened.set(
        backend.name,
        backend.open().then(async (project) => ({ ...project, ...(await prepare(project)) })),
      );
    return opened.get(backend.name)!;
  };
}

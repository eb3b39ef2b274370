import { parseArgs } from "node:util";
import { AppError } from "@/lib/errors";
import { createUser } from "@/lib/accounts/create-user";
import { findUserByEmail } from "@/lib/accounts/find-user-by-email";
import { verifyPassword } from "@/lib/auth/password";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { listWorkspaces } from "@/lib/workspaces/list-workspaces";
import { createProject } from "@/lib/projects/create-project";
import { listProjects } from "@/lib/projects/list-projects";
import { CliError, requireOption } from "../cli-error";

export const setupHelp = `Usage: flowpoint setup --email E --password P --workspace NAME --project NAME [--database-url URL]

Creates (or reuses) the owner account, a workspace the owner administers and a project in it, and
prints one JSON line: {"userId","workspaceId","projectId"}. Without --database-url the project uses
the built-in local database; a postgres:// or mongodb:// URL attaches the customer's own.`;

function databaseFromUrl(url: string | undefined): { kind: "local" } | { kind: "postgres" | "mongodb"; url: string } {
  if (!url) return { kind: "local" };
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: "postgres", url };
  if (/^mongodb(\+srv)?:\/\//i.test(url)) return { kind: "mongodb", url };
  throw new CliError("--database-url must start with postgres://, postgresql://, mongodb:// or mongodb+srv://");
}

export async function runSetup(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      workspace: { type: "string" },
      project: { type: "string" },
      "database-url": { type: "string" },
    },
    strict: true,
  });
  const email = requireOption(values, "email");
  const password = requireOption(values, "password");
  const workspaceName = requireOption(values, "workspace").trim();
  const projectName = requireOption(values, "project").trim();
  const database = databaseFromUrl(values["database-url"]);

  const existing = await findUserByEmail(email);
  let userId: string;
  if (existing) {
    if (!existing.passwordHash || !(await verifyPassword(password, existing.passwordHash))) {
      throw new CliError(`an account for ${existing.email} exists and the password does not match`);
    }
    userId = existing.id;
  } else {
    userId = (await createUser({ email, password })).id;
  }

  const workspace =
    (await listWorkspaces({ userId })).find((candidate) => candidate.name === workspaceName && candidate.role === "admin") ??
    (await createWorkspace({ userId, name: workspaceName }));

  let project = (await listProjects({ workspaceId: workspace.id, actorId: userId })).find((candidate) => candidate.name === projectName);
  if (!project) {
    project = await createProject({ workspaceId: workspace.id, actorId: userId, input: { name: projectName, database } });
  } else if (project.database.kind !== database.kind) {
    throw new AppError("conflict", `project "${projectName}" exists with a ${project.database.kind} database`);
  }

  process.stdout.write(`${JSON.stringify({ userId, workspaceId: workspace.id, projectId: project.id })}\n`);
}

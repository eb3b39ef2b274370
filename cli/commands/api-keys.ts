import { parseArgs } from "node:util";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { listApiKeys } from "@/lib/auth/api-keys/list-api-keys";
import { revokeApiKey } from "@/lib/auth/api-keys/revoke-api-key";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { getProjectOrThrow } from "@/lib/projects/get-project-or-throw";
import { CliError, requireOption } from "../cli-error";

export const apiKeysHelp = `Usage:
  flowpoint api-keys create --project ID --name N --permissions a,b,c
      prints one JSON line: {"id","key","prefix"} (the key is shown this once)
  flowpoint api-keys list --project ID
      prints one JSON line per key (never the key itself)
  flowpoint api-keys revoke --project ID --id KEY_ID
      prints one JSON line: {"id","revokedAt"}

Permissions: ${PERMISSIONS.join(", ")}`;

export async function runApiKeys(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: { project: { type: "string" }, name: { type: "string" }, permissions: { type: "string" }, id: { type: "string" } },
    strict: true,
  });
  const projectId = requireOption(values, "project");
  await getProjectOrThrow({ projectId });
  switch (action) {
    case "create": {
      const permissions = requireOption(values, "permissions")
        .split(",")
        .map((permission) => permission.trim())
        .filter(Boolean);
      const created = await createApiKey({ projectId, input: { name: requireOption(values, "name"), permissions } });
      process.stdout.write(`${JSON.stringify({ id: created.id, key: created.key, prefix: created.prefix })}\n`);
      return;
    }
    case "list": {
      for (const key of await listApiKeys({ projectId })) process.stdout.write(`${JSON.stringify(key)}\n`);
      return;
    }
    case "revoke": {
      const revoked = await revokeApiKey({ projectId, keyId: requireOption(values, "id") });
      process.stdout.write(`${JSON.stringify(revoked)}\n`);
      return;
    }
    default:
      throw new CliError(`unknown api-keys action ${action ? `"${action}"` : "(none)"}; use create, list or revoke`);
  }
}

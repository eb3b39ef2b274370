/**
 * Creates the automation benchmark's pool of write keys with the API-key service the CLI uses, in
 * one process (`npm run cli -- api-keys create` once per key would start a process per key). The
 * records API allows 600 calls a minute per key, so writes at a thousand a second rotate over
 * hundreds of keys. Talks to the benchmark's platform database through DATABASE_URL. Prints one JSON
 * line: {"keys":[{"id","key"}]}.
 *
 * Usage: tsx bench/automations/create-api-keys.ts <projectId> <count> <permission,…>
 */
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { closeKv } from "@/lib/kv/get-kv";
import { closePlatformDb } from "@/lib/platform-db/client";

async function main(): Promise<void> {
  const [projectId, countText, permissionList] = process.argv.slice(2);
  const count = Number(countText);
  if (!projectId || !Number.isInteger(count) || count < 1 || !permissionList) {
    throw new Error("usage: tsx bench/automations/create-api-keys.ts <projectId> <count> <permission,…>");
  }
  const permissions = permissionList.split(",");
  const keys: Array<{ id: string; key: string }> = [];
  for (let index = 0; index < count; index++) {
    const created = await createApiKey({ projectId, input: { name: `bench writer ${index + 1}`, permissions } });
    keys.push({ id: created.id, key: created.key });
  }
  process.stdout.write(`${JSON.stringify({ keys })}\n`);
}

main()
  // Creating a key bumps the project's generation: the key-value store's connection closes too.
  .then(() => Promise.all([closePlatformDb(), closeKv()]))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });

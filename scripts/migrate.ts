/** `npm run db:migrate`: applies pending platform database migrations and exits. */
import { closePlatformDb, getPlatformDbKind, migratePlatformDb } from "@/lib/platform-db/client";
import { ConfigError } from "@/lib/config";

async function main(): Promise<void> {
  try {
    await migratePlatformDb();
    console.log(`Platform database (${await getPlatformDbKind()}) is up to date.`);
  } catch (error) {
    const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    console.error(message);
    process.exitCode = 1;
  } finally {
    await closePlatformDb();
  }
}

await main();

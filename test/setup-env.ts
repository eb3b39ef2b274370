import path from "node:path";
import { resetConfigForTests } from "@/lib/config";

// Each test worker gets its own embedded data directory: PGlite allows one process per directory.
process.env.DATA_DIR = path.resolve(".data", "test", `worker-${process.env.VITEST_POOL_ID ?? "0"}-${process.pid}`);
resetConfigForTests();

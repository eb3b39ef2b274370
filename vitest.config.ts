import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // Tests import server modules directly: the marker package's server build is empty.
      "server-only": fileURLToPath(new URL("node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "dist/**", "e2e/**", ".data/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites own real servers and databases; files run in parallel, tests inside a file in order.
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, where the files
    // then spend most of their time waiting on their servers and databases. Two there halves the run.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    env: { NODE_ENV: "test" },
    setupFiles: ["test/setup-env.ts"],
  },
});

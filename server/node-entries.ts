/**
 * The production processes, compiled ahead of time by `npm run build` (scripts/build-server.ts)
 * into PRODUCTION_BUNDLE_DIR: `npm start` runs `dist/start.cjs`, `npm run worker` runs
 * `dist/worker.cjs` (server/node-flags.test.ts keeps package.json to these names).
 */
export const PRODUCTION_ENTRIES = { start: "server/start.ts", worker: "scripts/worker.ts" } as const;

export const PRODUCTION_BUNDLE_DIR = "dist";

/** The last part of `npm run build`: npm start's server and npm run worker compiled ahead of time (server/bundle-node-entries.ts). */
import { bundleNodeEntries } from "@/server/bundle-node-entries";
import { PRODUCTION_BUNDLE_DIR, PRODUCTION_ENTRIES } from "@/server/node-entries";

const started = performance.now();
const files = await bundleNodeEntries(PRODUCTION_ENTRIES, PRODUCTION_BUNDLE_DIR);
console.log(`Server and worker compiled in ${((performance.now() - started) / 1000).toFixed(1)} s: ${files.join(", ")}`);

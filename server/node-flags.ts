/**
 * Node flags of the long-lived processes: `npm start` and `npm run worker` pass them to node
 * (package.json; server/node-flags.test.ts keeps the two equal), and the benchmark starts the app
 * and its worker with them, so that what it measures is what `npm start` runs.
 *
 * `--max-semi-space-size=64` (MB; Node 20's default is 16): under load most young objects a call
 * makes are still in use at the next scavenge (the records of the answers in flight, execution
 * logs waiting for their batch), so each scavenge copies and promotes a few MB however small the
 * young generation is. A larger one runs a third as many scavenges for the same survivors
 * (bench/README.md, "Garbage collection"). The cost is memory: the young generation may grow to
 * 128 MB instead of 32, about 100 MB more resident memory under load.
 *
 * `--no-memory-reducer`: V8's memory reducer gives an idle process's heap back to the system, and the
 * first seconds of load after the pause then go to garbage collection while the heap grows again. In
 * the benchmark a burst of 870 record writes a second, 150 s after the last one, kept the server and
 * the worker behind for about two seconds: 626–874 runs waited at the worst moment, and the step's
 * delay p99 was 591–967 ms in six such steps, against 211–221 runs and 211–218 ms without the
 * reducer. Steps without the pause were alike either way (bench/README.md, "2026-12-07 (Intel, later)").
 * A floor under the young generation (`--min-semi-space-size=16`) did not help, so it is not the
 * young generation's shrinking. The cost is memory: an idle process keeps the heap its last load grew.
 *
 * `--enable-source-maps`: stack traces in the logs name lines of the TypeScript sources, not of the
 * compiled bundle (server/bundle-node-entries.ts), as they did when tsx ran the sources. Node maps a
 * stack only when one is read, which the app does for errors it logs, never per call.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=64", "--no-memory-reducer", "--enable-source-maps"];

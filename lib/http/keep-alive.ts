/**
 * How long the app's HTTP servers (and the test and bench servers that stand in for them) keep an
 * idle connection open. Longer than the 60 s idle timeout of common load balancers, so the proxy
 * closes first and never sends a request on a socket the server is closing; and longer than any
 * stall of a loaded client between two calls: with Node's default of 5 s, a test process stalled on
 * a busy machine sent its next call on a socket being closed as idle and read "ECONNRESET" (seen in
 * CI; reproduced in 1 of 3 runs of faults.redis.test.ts beside three busy loops, in none of 8 with
 * this timeout beside six).
 */
export const SERVER_KEEP_ALIVE_MS = 65_000;

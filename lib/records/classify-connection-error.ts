/** Why a connection test failed, in words an owner can act on. */
export type ConnectionFailure = "cannot_resolve_host" | "connection_refused" | "authentication_failed" | "timed_out" | "database_not_found" | "other";

export interface Clue {
  name?: unknown;
  code?: unknown;
  codeName?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  reason?: { servers?: unknown };
}

/** Every error inside an error: causes, AggregateError members, MongoDB's per-server errors. */
export function collectClues(error: unknown, into: Clue[] = [], depth = 0): Clue[] {
  if (depth > 6 || error === null || typeof error !== "object" || into.includes(error as Clue)) return into;
  const clue = error as Clue;
  into.push(clue);
  collectClues(clue.cause, into, depth + 1);
  if (Array.isArray(clue.errors)) for (const member of clue.errors) collectClues(member, into, depth + 1);
  const servers = clue.reason?.servers;
  if (servers instanceof Map) {
    for (const server of servers.values()) collectClues((server as { error?: unknown } | undefined)?.error, into, depth + 1);
  }
  return into;
}

const AUTH_CODES = new Set<unknown>(["28P01", "28000", 18, "AuthenticationFailed"]);
const RESOLVE_CODES = new Set<unknown>(["ENOTFOUND", "EAI_AGAIN", "EAI_NODATA", "EAI_NONAME", "EAI_FAIL"]);

/**
 * Classifies an error from the `pg` driver or the MongoDB driver raised while connecting. Looks at
 * codes first and at message patterns only where drivers give no code.
 */
export function classifyConnectionError(error: unknown): ConnectionFailure {
  const clues = collectClues(error);
  const has = (test: (clue: Clue) => boolean) => clues.some(test);
  const message = (clue: Clue) => (typeof clue.message === "string" ? clue.message : "");
  if (has((clue) => AUTH_CODES.has(clue.code) || AUTH_CODES.has(clue.codeName) || /authentication failed/i.test(message(clue)))) return "authentication_failed";
  if (has((clue) => clue.code === "3D000")) return "database_not_found";
  if (has((clue) => RESOLVE_CODES.has(clue.code) || /getaddrinfo|querySrv (ENOTFOUND|ESERVFAIL|ENODATA)/.test(message(clue)))) return "cannot_resolve_host";
  if (has((clue) => clue.code === "ECONNREFUSED" || /ECONNREFUSED/.test(message(clue)))) return "connection_refused";
  if (
    has((clue) => clue.code === "ETIMEDOUT" || clue.name === "MongoNetworkTimeoutError" || clue.name === "MongoServerSelectionError" || /timeout|timed out/i.test(message(clue)))
  ) {
    return "timed_out";
  }
  return "other";
}

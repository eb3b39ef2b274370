/** What a connection string points at, without its password: for messages an owner reads. */
export interface ConnectionTargetDescription {
  /** `host:port`, comma-separated for MongoDB replica sets; "the database server" when unknown. */
  hosts: string;
  user?: string;
  database?: string;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Parses postgres:// and mongodb(+srv):// URLs by hand (multi-host MongoDB URLs are not valid
 * WHATWG URLs). Only the host list, the user name and the database name come out.
 */
export function describeConnectionTarget(url: string, defaultPort: number | undefined): ConnectionTargetDescription {
  const schemeEnd = url.indexOf("://");
  if (schemeEnd === -1) return { hosts: "the database server" };
  const rest = url.slice(schemeEnd + 3).split(/[?#]/)[0] ?? "";
  // The last "@" ends the credentials, so a raw "/" or "@" inside a password cannot leak into the hosts.
  const at = rest.lastIndexOf("@");
  const userInfo = at === -1 ? "" : rest.slice(0, at);
  const afterUser = at === -1 ? rest : rest.slice(at + 1);
  const slash = afterUser.indexOf("/");
  const authority = slash === -1 ? afterUser : afterUser.slice(0, slash);
  const path = slash === -1 ? "" : safeDecode(afterUser.slice(slash + 1));
  const user = userInfo === "" ? undefined : safeDecode(userInfo.split(":")[0] ?? "");
  const hosts = authority
    .split(",")
    .filter(Boolean)
    .map((host) => (defaultPort !== undefined && !/:\d+$/.test(host) ? `${host}:${defaultPort}` : host))
    .join(", ");
  return { hosts: hosts || "the database server", user: user || undefined, database: path || undefined };
}

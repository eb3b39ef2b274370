import type { LookupAddress, LookupOptions } from "node:dns";
import net from "node:net";
import { AppError } from "@/lib/errors";
import { assertPublicDestination, type DestinationCheckOptions, type HostLookup } from "./assert-public-destination";
import { canonicalHost, type AllowedHost, getAllowedHosts } from "./allowed-hosts";
import { classifyAddress, describeAddressKind, parseHost } from "./address-policy";
import type { BeforeConnect } from "./pinned-connector";

/**
 * The guard for drivers that open their own TCP connections (PostgreSQL, MongoDB): the same policy as
 * safeFetch, applied to every socket the driver opens, not only when the URL is saved.
 */
export interface ConnectGuardOptions {
  /** Resolver to use instead of the system one (tests simulate DNS rebinding with it). */
  lookup?: HostLookup;
  /** Defaults to OUTBOUND_ALLOWED_HOSTS from the configuration. */
  allowedHosts?: AllowedHost[];
  /** Observes (and may veto by throwing) each socket about to be opened; for tests. */
  beforeConnect?: BeforeConnect;
}

/**
 * A socket whose `connect(port, host)` first runs the outbound guard on `host:port` and then dials the
 * checked address, so the driver never resolves the name itself (no second DNS answer to rebind). The
 * driver still knows the original host: `pg` upgrades this socket to TLS with that name as SNI and for
 * the certificate check. A refused destination destroys the socket with the guard's AppError, which the
 * driver reports as a failed connection.
 */
export class GuardedSocket extends net.Socket {
  readonly #guard: ConnectGuardOptions;

  constructor(guard: ConnectGuardOptions = {}) {
    super();
    this.#guard = guard;
  }

  // The signature `pg` uses: connect(port, host), or connect(path) for a Unix socket.
  override connect(...args: unknown[]): this {
    const [port, host] = args;
    // A Unix socket path (`?host=/var/run/postgresql`) reaches the platform's own machine: never allowed.
    if (typeof port !== "number" || typeof host !== "string") {
      process.nextTick(() => this.destroy(new AppError("validation_failed", "outbound request refused: the database host must be a host name or an IP address")));
      return this;
    }
    const check: DestinationCheckOptions = { lookup: this.#guard.lookup, allowedHosts: this.#guard.allowedHosts };
    assertPublicDestination(host, port, check).then(
      (destination) => {
        // The driver may have given up (connection timeout) while the name was being resolved.
        if (this.destroyed) return;
        try {
          this.#guard.beforeConnect?.({
            address: destination.address,
            family: destination.family,
            port,
            servername: net.isIP(destination.host) === 0 ? destination.host : undefined,
          });
        } catch (error) {
          this.destroy(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        super.connect({ port, host: destination.address, family: destination.family });
      },
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return this;
  }
}

/** A `pg` stream factory: a new guarded socket for every connection the client or pool opens. */
export function guardedStreamFactory(guard: ConnectGuardOptions = {}): () => net.Socket {
  return () => new GuardedSocket(guard);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A Node lookup is not told the port, so an allow-list entry for this host on any port exempts the name. */
function allowListedByName(hostname: string, allowedHosts: AllowedHost[]): AllowedHost[] {
  const canonical = canonicalHost(hostname);
  return canonical !== null && allowedHosts.some((entry) => entry.host === canonical) ? [{ host: canonical, port: null }] : [];
}

/**
 * A Node `lookup` (the `lookup` socket option, which the MongoDB driver passes to net/tls.connect)
 * that resolves a name once and answers only when every address is public, unless the host is
 * allow-listed; the connection then uses exactly the addresses it approved. A refusal is the guard's
 * AppError, which the driver reports as a failed connection. Node does not call a lookup for literal
 * IPs: callers check those themselves.
 */
export function guardedLookup(guard: ConnectGuardOptions = {}): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    const allowedHosts = allowListedByName(hostname, guard.allowedHosts ?? getAllowedHosts());
    // Port 1 only satisfies the guard's signature: allow-listing was decided above, by host.
    assertPublicDestination(hostname, 1, { lookup: guard.lookup, allowedHosts }).then(
      (destination) => {
        const wanted = options.family === 4 || options.family === 6 ? destination.addresses.filter((answer) => answer.family === options.family) : destination.addresses;
        const first = wanted[0];
        if (!first) {
          callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "");
          return;
        }
        try {
          guard.beforeConnect?.({ address: first.address, family: first.family, port: 0, servername: destination.host });
        } catch (error) {
          callback(error instanceof Error ? error : new Error(String(error)), "");
          return;
        }
        if (options.all)
          callback(
            null,
            wanted.map((answer) => ({ address: answer.address, family: answer.family })),
          );
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ""),
    );
  };
}

/**
 * Why a literal IP host is refused ("127.0.0.1 is a loopback address"), or null when it may be used (a
 * public address, or allow-listed for this port). Node connects to literal IPs without any lookup, so
 * callers that rely on `guardedLookup` check those with this.
 */
export function refusedLiteralReason(host: string, port: number, allowedHosts: AllowedHost[] = getAllowedHosts()): string | null {
  const parsed = parseHost(host);
  if (parsed.kind !== "ip") return null;
  const listed = allowedHosts.some((entry) => entry.host === parsed.address && (entry.port === null || entry.port === port));
  const classification = classifyAddress(parsed.address);
  return listed || classification.kind === "public" ? null : `${parsed.address} is ${describeAddressKind(classification)}`;
}

import { lookup as dnsLookup } from "node:dns/promises";
import { isIPv6 } from "node:net";
import { AppError, isAppError } from "@/lib/errors";
import { classifyAddress, describeAddressKind, parseHost } from "./address-policy";
import { type AllowedHost, getAllowedHosts, isAllowedHost } from "./allowed-hosts";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. The default is the system resolver (`dns.lookup`, all). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface DestinationCheckOptions {
  /** Resolver to use instead of the system one (tests simulate DNS rebinding with it). */
  lookup?: HostLookup;
  /** Defaults to OUTBOUND_ALLOWED_HOSTS from the configuration. */
  allowedHosts?: AllowedHost[];
  /** Cancels the lookup (a DNS lookup itself cannot be cancelled, but nobody waits for it). */
  signal?: AbortSignal;
}

/** A destination that passed the check. Connect to `address` (or the others in `addresses`, in order), never re-resolve `host`. */
export interface CheckedDestination {
  /** The host as given, canonical form (lowercase name, dotted IPv4 or compressed IPv6 without brackets). */
  host: string;
  port: number;
  /** The first checked address: the one to connect to. */
  address: string;
  family: 4 | 6;
  /** Every address the host resolved to, all checked, in resolver order. */
  addresses: ResolvedAddress[];
  /** True when OUTBOUND_ALLOWED_HOSTS exempted this host:port from the public-address check. */
  allowListed: boolean;
}

export const systemLookup: HostLookup = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

function refused(detail: string): AppError {
  return new AppError("validation_failed", `outbound request refused: ${detail}`);
}

function abortedError(): AppError {
  return new AppError("timeout", "outbound request was aborted");
}

function raceAbort<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return pending;
  if (signal.aborted) return Promise.reject(abortedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError());
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

const UNRESOLVABLE_CODES = new Set(["ENOTFOUND", "EAI_NONAME", "EAI_NODATA", "ENODATA", "EAI_FAIL"]);

async function resolveName(name: string, options: DestinationCheckOptions): Promise<ResolvedAddress[]> {
  const lookup = options.lookup ?? systemLookup;
  try {
    const answers = await raceAbort(
      Promise.resolve().then(() => lookup(name)),
      options.signal,
    );
    return answers.map((answer) => ({ address: answer.address, family: isIPv6(answer.address) ? 6 : 4 }));
  } catch (error) {
    if (isAppError(error)) throw error;
    const code = (error as { code?: unknown }).code;
    const detail = typeof code === "string" && UNRESOLVABLE_CODES.has(code) ? "host not found" : "DNS lookup failed";
    throw new AppError("unavailable", `outbound request to ${name} failed: ${detail}`, { cause: error });
  }
}

/**
 * Checks that `host:port` may be contacted and returns the exact address to connect to. Literal IPs (in any
 * spelling) are checked as they are; names are resolved once and refused when ANY answer is non-public,
 * so whichever address the caller ends up using was checked. OUTBOUND_ALLOWED_HOSTS exempts exact host:port
 * pairs. Callers must connect to the returned address (keeping `host` for TLS SNI / Host), never resolve
 * the name again: that is what closes the DNS rebinding window.
 *
 * Throws AppError `validation_failed` (refused: invalid host or port, non-public address), `unavailable`
 * (the name does not resolve), `timeout` (the signal aborted).
 */
export async function assertPublicDestination(host: string, port: number, options: DestinationCheckOptions = {}): Promise<CheckedDestination> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw refused(`port ${String(port)} is not valid`);
  const parsed = parseHost(host);
  if (parsed.kind === "invalid") throw refused(`"${host}" is ${parsed.reason}`);
  if (options.signal?.aborted) throw abortedError();

  const canonical = parsed.kind === "ip" ? parsed.address : parsed.name.replace(/\.$/, "");
  const allowListed = isAllowedHost(canonical, port, options.allowedHosts ?? getAllowedHosts());

  let addresses: ResolvedAddress[];
  if (parsed.kind === "ip") {
    addresses = [{ address: parsed.address, family: parsed.family }];
    const classification = classifyAddress(parsed.address);
    if (!allowListed && classification.kind !== "public") {
      throw refused(`${parsed.address} is ${describeAddressKind(classification)}`);
    }
  } else {
    // RFC 6761: localhost and *.localhost are loopback whatever a resolver says (or fails to say).
    if (!allowListed && (canonical === "localhost" || canonical.endsWith(".localhost"))) {
      throw refused(`${canonical} is a loopback host name`);
    }
    addresses = await resolveName(parsed.name, options);
    if (addresses.length === 0) throw new AppError("unavailable", `outbound request to ${canonical} failed: host not found`);
    for (const answer of addresses) {
      const classification = classifyAddress(answer.address);
      // The resolved address itself stays out of the message: it would map the platform's internal DNS.
      if (classification.kind === "invalid") throw refused(`${canonical} resolves to an invalid address`);
      if (!allowListed && classification.kind !== "public") {
        throw refused(`${canonical} resolves to ${describeAddressKind(classification)}`);
      }
    }
  }

  const first = addresses[0] as ResolvedAddress;
  return { host: canonical, port, address: first.address, family: first.family, addresses, allowListed };
}

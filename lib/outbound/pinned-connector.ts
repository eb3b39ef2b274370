import { isIP } from "node:net";
import { buildConnector } from "undici";
import type { CheckedDestination } from "./assert-public-destination";

/** The exact socket about to be opened: a checked address, with the host name kept for TLS SNI. */
export interface ConnectTarget {
  address: string;
  family: 4 | 6;
  port: number;
  /** The TLS server name (the URL's host name); undefined for IP literals and plain HTTP. */
  servername: string | undefined;
}

/** Called right before each connection attempt; throwing stops the attempt (and the request). */
export type BeforeConnect = (target: ConnectTarget) => void;

/**
 * An undici connector that never resolves anything: it dials only the addresses the destination check
 * approved, in order (the next one if a connection fails), so there is no second DNS answer to rebind.
 * The HTTP Host header and the TLS server name stay the URL's host name.
 */
export function pinnedConnector(destination: CheckedDestination, options: { timeoutMs: number; beforeConnect?: BeforeConnect }): buildConnector.connector {
  const dial = buildConnector({ timeout: options.timeoutMs });
  const servernameFor = (protocol: string) => (protocol === "https:" && isIP(destination.host) === 0 ? destination.host : undefined);

  return (connectOptions, callback) => {
    const servername = servernameFor(connectOptions.protocol);
    const attempt = (index: number) => {
      const target = destination.addresses[index];
      if (!target) {
        callback(new Error("no checked address to connect to"), null);
        return;
      }
      try {
        options.beforeConnect?.({ address: target.address, family: target.family, port: destination.port, servername });
      } catch (error) {
        callback(error instanceof Error ? error : new Error(String(error)), null);
        return;
      }
      dial({ ...connectOptions, hostname: target.address, port: String(destination.port), servername }, (...result) => {
        if (result[0] && index + 1 < destination.addresses.length) attempt(index + 1);
        else callback(...result);
      });
    };
    attempt(0);
  };
}

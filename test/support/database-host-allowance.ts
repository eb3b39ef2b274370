import { resetConfigForTests } from "@/lib/config";
import { connectionUrlHosts } from "@/lib/records/connection-url-hosts";

/**
 * Customer database hosts must pass the outbound guard, and the test servers are on loopback: a
 * suite allows the hosts it attaches by name, as an operator would with OUTBOUND_ALLOWED_HOSTS,
 * and puts the variable back when it is done.
 */
export function createDatabaseHostAllowance(): { allow(url: string): void; restore(): void } {
  const previous = process.env.OUTBOUND_ALLOWED_HOSTS;
  const allowed = new Set<string>();
  return {
    allow(url) {
      const defaultPort = url.startsWith("mongodb") ? 27017 : 5432;
      for (const { host, port } of connectionUrlHosts(url)) allowed.add(`${host}:${port ?? defaultPort}`);
      process.env.OUTBOUND_ALLOWED_HOSTS = [...allowed].join(",");
      resetConfigForTests();
    },
    restore() {
      if (previous === undefined) delete process.env.OUTBOUND_ALLOWED_HOSTS;
      else process.env.OUTBOUND_ALLOWED_HOSTS = previous;
      resetConfigForTests();
    },
  };
}

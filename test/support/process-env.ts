import { resetConfigForTests } from "@/lib/config";

/**
 * Sets environment variables for a fixture's life (`undefined` unsets one) and answers what puts the
 * previous values back; the configuration is read again both times. For the suites that point the
 * app at servers of their own (a private Redis, loopback hosts let through the outbound guard).
 */
export function setProcessEnv(changes: Record<string, string | undefined>): () => void {
  const previous = Object.fromEntries(Object.keys(changes).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfigForTests();
  };
  apply(changes);
  return () => apply(previous);
}

import { AppError } from "@/lib/errors";

/** A step's service, or a clear failure when the host running the flow does not offer it. */
export function requireService<T>(service: T | undefined, what: string): T {
  if (service === undefined) throw new AppError("unavailable", `${what} is not available where this flow runs`);
  return service;
}

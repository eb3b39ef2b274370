import { AppError, isAppError } from "@/lib/errors";
import { isConnectionFailure } from "@/lib/records/postgres/map-pg-error";

/** How deep a wrapped error's causes are searched (Drizzle wraps the driver's error once). */
const MAX_CAUSES = 5;

/** True when the error, or an error it wraps, says a PostgreSQL database could not be reached. */
function isLostDatabase(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth <= MAX_CAUSES && current !== null && typeof current === "object"; depth++) {
    if (isConnectionFailure(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * What a thrown value is answered as, by the layers that turn errors into answers: an AppError as it
 * is; the platform database out of reach (its queries go through Drizzle, which passes the driver's
 * errors on unmapped) as 503 unavailable, which tells a caller to try again rather than report a
 * bug; anything else as a generic 500. The cause stays for the server log.
 */
export function answerableError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (isLostDatabase(error)) return new AppError("unavailable", "the service is temporarily unavailable: please try again shortly", { cause: error });
  return new AppError("internal", "internal error", { cause: error });
}

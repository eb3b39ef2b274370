import type { ActionResult } from "@/lib/http/action-result";
import type { ConnectionTestResult } from "./test-database-connection";

/** What a "Test connection" button shows: the test's outcome, or the action's refusal as a failed test. */
export function connectionTestOutcome(result: ActionResult<ConnectionTestResult>): ConnectionTestResult {
  return result.ok ? result.data : { ok: false, message: result.error };
}

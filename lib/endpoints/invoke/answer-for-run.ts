import { isAppError } from "@/lib/errors";
import type { FlowRunResult } from "@/lib/flow/engine/run-flow";
import type { EndpointInput } from "../endpoint-definition";
import { jsonBodyFromText } from "@/lib/flow/engine/render-json-body";
import { renderEndpointResponse } from "./render-response";
import type { CachedResponse } from "./response-cache";

const JSON_TYPE = "application/json; charset=utf-8";

export interface RunAnswer extends CachedResponse {
  /** Why the run failed outside its steps (the response could not be rendered), for the log. */
  failure: string | null;
}

/**
 * What a caller gets for a run (DESIGN.md, invocation errors): the rendered response when it
 * completed; the condition's stop status and body when stopped; otherwise a 500 naming only the
 * execution id — the details are in the execution log.
 */
export function answerForRun(response: EndpointInput["response"], run: FlowRunResult | null, executionId: string): RunAnswer {
  const failed = (failure: string | null): RunAnswer => ({
    status: 500,
    contentType: JSON_TYPE,
    headers: {},
    body: JSON.stringify({ error: "endpoint execution failed", executionId }),
    failure,
  });
  if (!run) return failed("the stored flow is invalid; open and save the endpoint again");
  if (run.outcome === "completed") {
    try {
      return { ...renderEndpointResponse(response, run.context), failure: null };
    } catch (error) {
      return failed(isAppError(error) ? error.message : "the response could not be rendered");
    }
  }
  if (run.outcome === "stopped" && run.stop) {
    // A stop answer is always JSON. The condition step rendered its body with renderJsonBody, the
    // same renderer as a JSON response; the check only guards a stop from any other source.
    return { status: run.stop.status, contentType: JSON_TYPE, headers: {}, body: jsonBodyFromText(run.stop.body), failure: null };
  }
  return failed(null);
}

import { isAppError } from "@/lib/errors";
import type { FlowRunResult } from "@/lib/flow/engine/run-flow";
import type { EndpointInput } from "../endpoint-definition";
import { jsonBodyFromText } from "@/lib/flow/engine/render-json-body";
import { renderEndpointResponse, type RenderedResponse } from "./render-response";
import type { RunLogFields } from "@/lib/runs/run-project-flow";

const JSON_TYPE = "application/json; charset=utf-8";

export interface RunAnswer extends RunLogFields {
  httpStatus: number;
  /** What the caller is answered (and, for the log, the value a JSON body was written from). */
  response: RenderedResponse;
  /** Why the run failed outside its steps (the response could not be rendered), for the log. */
  error: string | null;
}

/**
 * What a caller gets for a run (docs/DESIGN.md, "Invocation errors"): the rendered response when it
 * completed; the condition's stop status and body when stopped; otherwise a 500 naming only the
 * execution id — the details are in the execution log.
 */
export function answerForRun(responseDefinition: EndpointInput["response"], run: FlowRunResult | null, executionId: string): RunAnswer {
  const failed = (error: string | null): RunAnswer => ({
    httpStatus: 500,
    response: { status: 500, contentType: JSON_TYPE, headers: {}, body: JSON.stringify({ error: "endpoint execution failed", executionId }) },
    error,
  });
  if (!run) return failed("the stored flow is invalid; open and save the endpoint again");
  if (run.outcome === "completed") {
    let response: RenderedResponse;
    try {
      response = renderEndpointResponse(responseDefinition, run.context);
    } catch (error) {
      return failed(isAppError(error) ? error.message : "the response could not be rendered");
    }
    return { httpStatus: response.status, response, error: null };
  }
  if (run.outcome === "stopped" && run.stop) {
    // A stop answer is always JSON. The condition step rendered its body with renderJsonBody, the
    // same renderer as a JSON response; the check only guards a stop from any other source.
    const status = run.stop.status;
    return { httpStatus: status, response: { status, contentType: JSON_TYPE, headers: {}, body: jsonBodyFromText(run.stop.body) }, error: null };
  }
  return failed(null);
}

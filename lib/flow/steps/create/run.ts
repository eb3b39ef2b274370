import type { FlowStepOf } from "@/lib/flow/flow-definition";
import type { FlowRecord } from "@/lib/flow/engine/flow-services";
import { requireService } from "@/lib/flow/engine/require-service";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { renderRecordValues } from "../shared/render-record-values";

/** Output: the created record. */
export function runCreate(step: FlowStepOf<"create">, { context, services, signal }: StepRunContext): Promise<FlowRecord> {
  const records = requireService(services.records, "the records service");
  return records.create({ schema: step.schema, values: renderRecordValues(step.values, context), signal });
}

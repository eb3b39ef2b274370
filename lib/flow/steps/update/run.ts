import { AppError } from "@/lib/errors";
import type { FlowStepOf } from "@/lib/flow/flow-definition";
import type { FlowRecord } from "@/lib/flow/engine/flow-services";
import { requireService } from "@/lib/flow/engine/require-service";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { renderFilters } from "../shared/filter-lines";
import { parsedFiltersOrThrow } from "../shared/parsed-filters-or-throw";
import { renderRecordValues } from "../shared/render-record-values";

/** Updates the first match. Output: the updated record with `matched: true`, or `{matched: false}`. */
export function runUpdate(step: FlowStepOf<"update">, { context, services, signal }: StepRunContext): Promise<FlowRecord & { matched: boolean }> {
  const records = requireService(services.records, "the records service");
  const filters = parsedFiltersOrThrow(step.filters);
  // Checked when saved too; an update without filters would change an arbitrary record.
  if (filters.length === 0) throw new AppError("validation_failed", "an update step needs at least one filter");
  return records.update({
    schema: step.schema,
    where: renderFilters(filters, context),
    values: renderRecordValues(step.values, context),
    signal,
  });
}

import type { FlowStepOf } from "@/lib/flow/flow-definition";
import type { FlowRecord } from "@/lib/flow/engine/flow-services";
import { requireService } from "@/lib/flow/engine/require-service";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { renderFilters } from "../shared/filter-lines";
import { parsedFiltersOrThrow } from "../shared/parsed-filters-or-throw";
import { parseSort } from "../shared/parse-sort";

/** Output: the array of matched records (at most `limit`). */
export function runQuery(step: FlowStepOf<"query">, { context, services, signal }: StepRunContext): Promise<FlowRecord[]> {
  const records = requireService(services.records, "the records service");
  return records.query({
    schema: step.schema,
    where: renderFilters(parsedFiltersOrThrow(step.filters), context),
    limit: step.limit,
    sort: parseSort(step.sort),
    expand: [...step.expand],
    signal,
  });
}

import { createFlowContext, type FlowContext, type FlowContextInput } from "@/lib/flow/engine/context";
import type { FlowServices } from "@/lib/flow/engine/flow-services";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { parseFlowOrThrow, type FlowStepInput, type FlowStepOf } from "@/lib/flow/flow-definition";
import type { StepKind } from "@/lib/flow/steps/step-kind";

/** A validated step of one kind, as the engine would hand it to its runner. */
export function parsedStep<K extends StepKind>(step: Extract<FlowStepInput, { type: K }>): FlowStepOf<K> {
  const [parsed] = parseFlowOrThrow([step]);
  return parsed as FlowStepOf<K>;
}

/** What a runner gets from the engine, for calling a runner directly. */
export function stepRunContext(
  options: { context?: FlowContext | FlowContextInput; services?: FlowServices; signal?: AbortSignal; index?: number; name?: string | null } = {},
): StepRunContext {
  const context = options.context && "steps" in options.context ? (options.context as FlowContext) : createFlowContext(options.context);
  return {
    context,
    services: options.services ?? {},
    signal: options.signal ?? new AbortController().signal,
    index: options.index ?? 0,
    name: options.name ?? null,
  };
}

/**
 * The context of one run: what templates and transforms read. It is built once per run and never
 * copied; step outputs are added to `steps` as the run goes. Everything in it is treated as
 * immutable: steps read it, only the engine writes `steps.<name>`.
 */
export interface FlowContext {
  /** The caller's JSON request body (an empty object when there is none). */
  readonly body: unknown;
  /** URL query parameters; a repeated parameter is an array. */
  readonly query: Readonly<Record<string, unknown>>;
  /** The end-user profile on end-user endpoints, else null. */
  readonly user: Readonly<Record<string, unknown>> | null;
  /** Step outputs by output name. */
  readonly steps: Record<string, unknown>;
  /** The trigger payload; on endpoints the same value as `body`. */
  readonly trigger: unknown;
}

export interface FlowContextInput {
  body?: unknown;
  query?: Readonly<Record<string, unknown>>;
  user?: Readonly<Record<string, unknown>> | null;
  /** Defaults to `body` (endpoints); automations pass their trigger payload. */
  trigger?: unknown;
}

/** Builds a run's context. The given values are used by reference, not copied. */
export function createFlowContext(input: FlowContextInput = {}): FlowContext {
  const body = input.body === undefined ? {} : input.body;
  return {
    body,
    query: input.query ?? {},
    user: input.user ?? null,
    steps: {},
    trigger: input.trigger === undefined ? body : input.trigger,
  };
}

import type { z } from "zod";
import type { StepKind } from "./step-kind";

/**
 * The browser-safe half of a step kind: what the editor, the management API and the engine agree
 * on about its settings. The runner lives beside it in `run.ts` and is never imported by the UI.
 */
export interface StepDefinition<K extends StepKind = StepKind, S extends z.ZodObject = z.ZodObject> {
  /** The step's `type`. */
  readonly id: K;
  readonly label: string;
  readonly description: string;
  /** The step's own fields (the common ones, type/name/enabled/continueOnError, are added by the flow schema). */
  readonly settings: S;
  /** Starting values of a new step in the editor. */
  readonly defaults: z.input<S>;
  /**
   * The step's own time limit inside the run budget; the engine gives it an abort signal that
   * fires at the smaller of this and what is left of the run. Absent for synchronous steps.
   */
  readonly timeoutMs?: number;
  /**
   * The settings whose templates may read project secrets (`{{secrets.NAME}}`): the URL, headers and
   * body of outbound steps. Secrets anywhere else are refused when saved (lib/flow/secret-references.ts).
   */
  readonly secretFields?: readonly string[];
  /** Rules across fields, reported with the path of the field at fault. */
  refine?(settings: z.output<S>, ctx: z.RefinementCtx): void;
}

/** Keeps a definition's precise types while checking it against the contract. */
export function defineStep<K extends StepKind, S extends z.ZodObject>(definition: StepDefinition<K, S>): StepDefinition<K, S> {
  return definition;
}

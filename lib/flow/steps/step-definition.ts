import type { z } from "zod";
import type { ErrorIssue } from "@/lib/errors";
import type { StepProjectContext } from "./shared/project-checks";
import type { StepCatalogEntry } from "./step-catalog";

/**
 * The browser-safe half of a step kind: what the editor, the management API and the engine agree
 * on about its settings. Its catalog entry (`catalog.ts` beside it: label, defaults, editor rules)
 * is spread into it; the editor reads the catalog alone, so that the dashboard's first scripts carry
 * no zod schema. The runner lives beside it in `run.ts` and is never imported by the UI.
 */
export interface StepDefinition<K extends string = string, S extends z.ZodObject = z.ZodObject> extends StepCatalogEntry<K> {
  /** The step's own fields (the common ones, type/name/enabled/continueOnError, are added by the flow schema). */
  readonly settings: S;
  /** Starting values of a new step in the editor (the catalog's, checked against the settings here). */
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
  /**
   * The save-time checks that need the project (the schema a step names exists and holds records,
   * its field, filter, sort and relation names are real), run on valid settings by
   * lib/flow/validate-project-flow.ts for endpoints and automations alike. Issue paths are relative
   * to the step (`schema`, `expand.0`). Pure: the project's facts come in `project`.
   */
  checkWithProject?(settings: z.output<S>, project: StepProjectContext): ErrorIssue[];
}

/** Keeps a definition's precise types while checking it against the contract. */
export function defineStep<K extends string, S extends z.ZodObject>(definition: StepDefinition<K, S>): StepDefinition<K, S> {
  return definition;
}

/**
 * What the dashboard's editors know of a step kind without its settings schema: its label, the
 * starting values of a new step and how the editor holds its settings. Zod-free, so the editors'
 * first scripts stay small; each kind's definition (definition.ts) spreads its entry and checks the
 * defaults against its settings.
 */
export interface StepCatalogEntry<K extends string = string> {
  /** The step's `type`. */
  readonly id: K;
  readonly label: string;
  readonly description: string;
  /** Starting values of a new step in the editor: one per setting, so its keys are the settings' names. */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** How the editor holds the settings that are not plain text; `{}` when all are. */
  readonly editor: StepEditorRules;
}

/**
 * How the dashboard's flow editor holds a kind's settings where they are not plain text
 * (components/endpoints/endpoint-draft.ts converts between its drafts and the settings with them).
 * Part of each definition, so that a new kind decides them beside its settings.
 */
export interface StepEditorRules {
  /** The map setting edited as name → value rows. */
  readonly rows?: "headers" | "values";
  /** Edited as condition checks. */
  readonly checks?: true;
  /** Numbers in the API, text in the editor ("" = absent, or null when nullable). */
  readonly numbers?: Readonly<Record<string, "required" | "nullable">>;
  /** Lists of strings. */
  readonly lists?: readonly string[];
  /** Text settings whose empty value means none (null). */
  readonly emptyIsNull?: readonly string[];
  /** The output is always null, so a new step gets no output name. */
  readonly noOutput?: true;
}

import { toCheckInputs, toStepInput, type StepDraft } from "./endpoint-draft";

/**
 * What the last test run ran, step by step, to tell later which of its results no longer describe
 * the draft: a step's fingerprint is its definition as the API takes it (a pure reorder or a new
 * draft key changes nothing), a check's its left, operator and right.
 */
export interface TestRunSnapshot {
  readonly steps: readonly { readonly key: string; readonly fingerprint: string; readonly checks: Readonly<Record<string, string>> }[];
}

/** Which results of the last test run were made before an edit the owner has made since. */
export interface LastRunStaleness {
  /** Keys of steps whose own definition changed since the run (or that did not exist then). */
  readonly editedSteps: ReadonlySet<string>;
  /** By the step's current position: whether the steps before it are not the ones it ran after (edited, added, removed, moved). */
  readonly earlierStepsChanged: readonly boolean[];
  /** Keys of condition checks whose verdict was decided over something that changed since (the check itself or an earlier step). */
  readonly staleChecks: ReadonlySet<string>;
}

function stepFingerprint(step: StepDraft): string {
  return JSON.stringify(toStepInput(step));
}

function checkFingerprints(step: StepDraft): Record<string, string> {
  const inputs = toCheckInputs(step.checks);
  return Object.fromEntries(step.checks.map((check, index) => [check.key, JSON.stringify(inputs[index])]));
}

/** The steps as a test run starts with them. */
export function snapshotTestRun(steps: readonly StepDraft[]): TestRunSnapshot {
  return { steps: steps.map((step) => ({ key: step.key, fingerprint: stepFingerprint(step), checks: checkFingerprints(step) })) };
}

/**
 * Compares the draft with the steps of the last run. A step's earlier steps are compared with those
 * it ran after; a step added since is compared with as many steps from the top of the run as stand
 * before it now, so one appended to an unchanged flow still sees the run's context as fresh.
 */
export function lastRunStaleness(snapshot: TestRunSnapshot, steps: readonly StepDraft[]): LastRunStaleness {
  const ran = new Map(snapshot.steps.map((step, index) => [step.key, { ...step, index }]));
  const current = steps.map((step) => ({ key: step.key, fingerprint: stepFingerprint(step) }));
  const editedSteps = new Set<string>();
  const staleChecks = new Set<string>();
  const earlierStepsChanged = steps.map((step, index) => {
    const before = snapshot.steps.slice(0, ran.get(step.key)?.index ?? index);
    return before.length !== index || before.some((earlier, at) => earlier.key !== current[at]!.key || earlier.fingerprint !== current[at]!.fingerprint);
  });
  steps.forEach((step, index) => {
    const previous = ran.get(step.key);
    if (previous === undefined || previous.fingerprint !== current[index]!.fingerprint) editedSteps.add(step.key);
    const checks = checkFingerprints(step);
    for (const [key, fingerprint] of Object.entries(checks)) {
      if (earlierStepsChanged[index] || previous?.checks[key] !== fingerprint) staleChecks.add(key);
    }
  });
  return { editedSteps, earlierStepsChanged, staleChecks };
}

/** Whether a step card's last-run result predates an edit to the step or to the steps before it. */
export function isStepResultStale(staleness: LastRunStaleness | undefined, key: string, index: number): boolean {
  return staleness !== undefined && (staleness.editedSteps.has(key) || staleness.earlierStepsChanged[index] === true);
}

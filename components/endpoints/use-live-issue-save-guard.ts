"use client";

import type { ErrorIssue } from "@/lib/errors";
import type { StepDraft } from "./endpoint-draft";
import { useOnFirstInput } from "@/components/ui/use-on-first-input";
import { loadLiveChecks } from "./live-hints";
import { useFocusFirstMarkedField } from "./use-focus-first-marked-field";

export const LIVE_ISSUES_REFUSAL = "Fix the marked fields before saving.";

/**
 * Save's first step in the flow editors (endpoints and automations). The live checks use the
 * server's own schemas, so a draft they mark would be refused: say so at once, where the problem is,
 * instead of a round trip. Also returns the focus helper the editor uses for the server's issues.
 * Until the live checks have loaded (they start loading at the owner's first input) a save goes to the server, which
 * validates it anyway.
 */
export function useLiveIssueSaveGuard(onRefused: (message: string) => void) {
  const focusFirstMarkedField = useFocusFirstMarkedField();
  const liveChecks = useOnFirstInput(loadLiveChecks);
  /** True (and the owner taken to the first marked field) when the draft's live issues block saving. */
  function refuseOnLiveIssues(ownIssues: readonly ErrorIssue[], steps: readonly StepDraft[]): boolean {
    if (liveChecks === null || !liveChecks.hasLiveFlowIssues(ownIssues, steps)) return false;
    onRefused(LIVE_ISSUES_REFUSAL);
    focusFirstMarkedField();
    return true;
  }
  return { refuseOnLiveIssues, focusFirstMarkedField };
}

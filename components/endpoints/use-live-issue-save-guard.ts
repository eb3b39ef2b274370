"use client";

import type { ErrorIssue } from "@/lib/errors";
import type { StepDraft } from "./endpoint-draft";
import { hasLiveFlowIssues } from "./live-checks";
import { useFocusFirstMarkedField } from "./use-focus-first-marked-field";

export const LIVE_ISSUES_REFUSAL = "Fix the marked fields before saving.";

/**
 * Save's first step in the flow editors (endpoints and automations). The live checks use the
 * server's own schemas, so a draft they mark would be refused: say so at once, where the problem is,
 * instead of a round trip. Also returns the focus helper the editor uses for the server's issues.
 */
export function useLiveIssueSaveGuard(onRefused: (message: string) => void) {
  const focusFirstMarkedField = useFocusFirstMarkedField();
  /** True (and the owner taken to the first marked field) when the draft's live issues block saving. */
  function refuseOnLiveIssues(ownIssues: readonly ErrorIssue[], steps: readonly StepDraft[]): boolean {
    if (!hasLiveFlowIssues(ownIssues, steps)) return false;
    onRefused(LIVE_ISSUES_REFUSAL);
    focusFirstMarkedField();
    return true;
  }
  return { refuseOnLiveIssues, focusFirstMarkedField };
}

"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ErrorIssue } from "@/lib/errors";
import type { TemplateWarning } from "@/lib/flow/template-context/find-flow-template-warnings";
import type { ActionResult } from "@/lib/http/action-result";
import type { StepDraft } from "./endpoint-draft";
import { draftStorageKey, type DraftOwnerKind } from "./draft-persistence";
import { useOnFirstInput } from "@/components/ui/use-on-first-input";
import { useStoredDraft, useUnsavedChangesGuard } from "./editor-shell";
import { withLiveIssues } from "./live-hints";
import { placeStepIssues, stepIssuePath } from "./step-list-editor";
import { useLiveIssueSaveGuard } from "./use-live-issue-save-guard";

export type SaveFlowResult = ActionResult<{ id?: string; version?: number; warnings?: TemplateWarning[] }>;

/**
 * The state and the save of a flow editor (endpoints and automations): the draft beside the
 * definition as last saved, the copy kept in the browser's storage, the server's issues, the save's
 * error, notice and template warnings. Saving refuses a draft the live checks mark, places the
 * server's issues on the steps' keys, and goes to the new page after a first save.
 */
export function useFlowEditor<Draft extends { steps: StepDraft[] }>(options: {
  kind: DraftOwnerKind;
  projectId: string;
  /** The saved definition's id, or null for a new one. */
  id: string | null;
  initial: Draft | null;
  newDraft: () => Draft;
  toInput: (draft: Draft) => unknown;
  isDraft: (value: unknown) => value is Draft;
  /**
   * Imports the checks run as the owner types (live-checks.ts) at the owner's first input, so that
   * zod's flow schemas and the JMESPath compiler are not part of the page's load. Module-level.
   */
  loadLiveIssues: () => Promise<(draft: Draft) => ErrorIssue[]>;
  /** Dropped from the server's issue paths before they are placed (a test run's `endpoint.`). */
  issuePrefix?: RegExp;
}) {
  const { kind, projectId, id, toInput, issuePrefix } = options;
  const loadedLiveIssues = useOnFirstInput(options.loadLiveIssues);
  const router = useRouter();
  /** The definition as last saved: the draft is compared with it (unsaved changes) and stored while it differs. */
  const [saved, setSaved] = useState<Draft>(() => options.initial ?? options.newDraft());
  const [draft, setDraft] = useState<Draft>(saved);
  const stored = useStoredDraft({ storageKey: draftStorageKey(kind, projectId, id), draft, saved, toInput, isDraft: options.isDraft });
  useUnsavedChangesGuard(stored.dirty);
  const [issues, setIssues] = useState<ErrorIssue[]>([]);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [warnings, setWarnings] = useState<TemplateWarning[]>([]);
  const [pending, startTransition] = useTransition();
  const { refuseOnLiveIssues, focusFirstMarkedField } = useLiveIssueSaveGuard(setError);
  const liveIssues = (current: Draft): ErrorIssue[] => loadedLiveIssues?.(current) ?? [];

  /** An edit makes the last save's notice and warnings out of date. */
  function clearSaveMessages() {
    setNotice(undefined);
    setWarnings([]);
  }
  function change(patch: Partial<Draft>) {
    clearSaveMessages();
    setDraft((current) => ({ ...current, ...patch }));
  }
  /** Changes one nested settings object of the draft (`response`, `form`, `schedule`). */
  function changePart<K extends keyof Draft>(part: K, patch: Partial<Draft[K]>) {
    clearSaveMessages();
    setDraft((current) => ({ ...current, [part]: { ...current[part], ...patch } }));
  }
  function setSteps(update: (steps: StepDraft[]) => StepDraft[]) {
    setDraft((current) => ({ ...current, steps: update(current.steps) }));
  }
  function dropStepIssues(key: string) {
    setIssues((current) => current.filter((issue) => !issue.path.startsWith(`${stepIssuePath(key)}.`)));
  }

  /** Server paths → editor paths (`steps.2.expression` → the step's key). */
  function placeIssues(raw: readonly ErrorIssue[], keys: readonly string[]): ErrorIssue[] {
    return placeStepIssues(raw, keys, issuePrefix);
  }

  /** Saves the draft with `call`; `savedNotice` is shown when an existing definition was saved. */
  function save(call: (input: unknown) => Promise<SaveFlowResult>, savedNotice: string) {
    const keys = draft.steps.map((step) => step.key);
    const savedDraft = draft;
    const input = toInput(draft);
    setError(undefined);
    clearSaveMessages();
    if (refuseOnLiveIssues(liveIssues(draft), draft.steps)) return;
    startTransition(async () => {
      const result = await call(input);
      if (!result.ok) {
        setError(result.error);
        setIssues(placeIssues(result.issues, keys));
        focusFirstMarkedField();
        return;
      }
      setIssues([]);
      setWarnings(result.data.warnings ?? []);
      setSaved(savedDraft);
      stored.discardOffer();
      if (!id && result.data.id) {
        router.push(`/projects/${projectId}/${kind}s/${result.data.id}`);
        return;
      }
      setNotice(savedNotice);
    });
  }

  /** Puts the draft offered from storage back in the editor. */
  function restoreStoredDraft(): boolean {
    const restored = stored.takeOffer();
    if (!restored) return false;
    // A transition: the restored steps may be of kinds whose forms (their own chunks) have not
    // loaded; it waits for them where an urgent update would suspend the editor.
    startTransition(() => {
      setDraft(restored);
      setIssues([]);
      clearSaveMessages();
    });
    return true;
  }

  return {
    saved,
    draft,
    stored,
    issues,
    setIssues,
    /** The server's issues and, where the server said nothing, the live ones. */
    shownIssues: withLiveIssues(issues, liveIssues(draft)),
    error,
    notice,
    warnings,
    pending,
    change,
    changePart,
    setSteps,
    clearSaveMessages,
    dropStepIssues,
    placeIssues,
    save,
    restoreStoredDraft,
    focusFirstMarkedField,
  };
}

"use client";

import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FormError, Notice } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import type { TemplateWarning } from "@/lib/flow/template-context/find-flow-template-warnings";
import { SavedWarnings } from "./saved-warnings";
import { formatRunTime } from "./status-badges";
import { newKey } from "./endpoint-draft";
import { hasUnsavedChanges, readStoredDraft, serializeStoredDraft, type DraftOffer } from "./draft-persistence";
import { EDITOR_SHORTCUT_ARIA, editorShortcutOf, isApplePlatform, shortcutLabel, type EditorShortcut } from "./editor-shortcuts";

/**
 * The pieces the flow editors (endpoints, automations) share around their forms: the two-pane
 * layout, the keyboard shortcuts, the guard against leaving with unsaved changes and the draft
 * kept in the browser's storage across reloads.
 */

/**
 * The flow on the left and the run panel on the right, on screens wide enough for both; the
 * right pane stays in view (sticky, scrolling on its own) while the flow scrolls. Narrower
 * screens get one column, the run panel after the flow. Both panes are named regions. The flow
 * is a size container: its forms lay out by the room the flow has (@xl: variants), since beside
 * the run panel it is narrower than a wide viewport suggests.
 */
export function EditorWorkbench({ flowLabel, flow, sideLabel, side }: { flowLabel: string; flow: ReactNode; sideLabel: string; side?: ReactNode }) {
  if (!side) return <div className="@container space-y-6">{flow}</div>;
  return (
    <div className="space-y-6 xl:grid xl:grid-cols-[minmax(0,1fr)_minmax(24rem,28rem)] xl:items-start xl:gap-6 xl:space-y-0">
      <section aria-label={flowLabel} className="@container min-w-0 space-y-6">
        {flow}
      </section>
      {/* A named region, not an <aside>: a complementary landmark inside <main> is flagged by axe.
          top-20 clears the sticky top bar (h-14) with a margin. */}
      <section aria-label={sideLabel} className="min-w-0 xl:sticky xl:top-20 xl:max-h-[calc(100dvh-6rem)] xl:overflow-y-auto xl:overscroll-contain xl:rounded-xl">
        {side}
      </section>
    </div>
  );
}

/**
 * Calls the editor's save or run on its shortcut, from anywhere on the page. The handlers are read
 * at key time, so they always see the current draft.
 */
export function useEditorShortcuts(handlers: Partial<Record<EditorShortcut, () => void>>): void {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const shortcut = editorShortcutOf(event);
      const handler = shortcut ? current.current[shortcut] : undefined;
      // A modal dialog (delete confirmation) owns the keyboard while it is open.
      if (!handler || document.querySelector("dialog[open]")) return;
      // Ctrl+S would otherwise open the browser's "save page" dialog.
      event.preventDefault();
      handler();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}

const noSubscription = () => () => {};

/** ⌘ on Apple keyboards; the server renders Ctrl and the browser corrects it after hydration. */
function useApplePlatform(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => isApplePlatform(navigator.platform || navigator.userAgent),
    () => false,
  );
}

/**
 * The shortcut written next to its button. Hidden from assistive technology, which reads the
 * button's own `aria-keyshortcuts` (see shortcutProps) instead of a stray "Ctrl+S".
 */
export function ShortcutHint({ shortcut }: { shortcut: EditorShortcut }) {
  const apple = useApplePlatform();
  return (
    <kbd aria-hidden="true" className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-700">
      {shortcutLabel(shortcut, apple)}
    </kbd>
  );
}

/**
 * The bottom of a flow editor's form: the save's error, notice and template warnings, a line on the
 * marked problems (or what saving does), and the save button with its shortcut.
 */
export function EditorSaveBar(props: {
  error?: string;
  unplacedIssues: string[];
  notice?: string;
  warnings: readonly TemplateWarning[];
  issueCount: number;
  /** What saving does, shown while nothing is marked. */
  idleText: string;
  saveLabel: string;
  pending: boolean;
  onSave: () => void;
}) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white px-5 py-4 shadow-sm">
      <FormError message={props.error} issues={props.unplacedIssues} className="mb-3" />
      {props.notice && <Notice className="mb-3">{props.notice}</Notice>}
      <SavedWarnings warnings={props.warnings} className="mb-3" />
      <div className="flex items-center justify-between gap-3">
        <p className="text-xs text-slate-500">
          {props.issueCount > 0 ? `${props.issueCount === 1 ? "1 problem" : `${props.issueCount} problems`} marked in red.` : props.idleText}
        </p>
        <span className="flex items-center gap-3">
          <ShortcutButton shortcut="save" pending={props.pending} onClick={props.onSave}>
            {props.saveLabel}
          </ShortcutButton>
        </span>
      </div>
    </div>
  );
}

/** A button its shortcut also presses (Save, Run), with the shortcut written before it and a spinner while pending. */
export function ShortcutButton({ shortcut, pending, onClick, children }: { shortcut: EditorShortcut; pending: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <>
      <ShortcutHint shortcut={shortcut} />
      <Button onClick={onClick} busy={pending} {...shortcutProps(shortcut)}>
        {pending && <Spinner />}
        {children}
      </Button>
    </>
  );
}

/** `aria-keyshortcuts` for the button a shortcut presses. */
export function shortcutProps(shortcut: EditorShortcut): { "aria-keyshortcuts": string } {
  return { "aria-keyshortcuts": EDITOR_SHORTCUT_ARIA[shortcut] };
}

const LEAVE_MESSAGE = "You have unsaved changes. Leave this page anyway? (They stay stored in this browser and can be restored when you come back.)";

/**
 * While `dirty`, leaving asks first: closing or reloading the tab (the browser's own prompt) and
 * following a link inside the app (the App Router navigates without unloading the page, so links
 * are caught before Next's Link handles the click). Browser back/forward is not caught; the draft
 * kept in storage covers it.
 */
export function useUnsavedChangesGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    let confirmedLeave = false;
    function onBeforeUnload(event: BeforeUnloadEvent) {
      if (confirmedLeave) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    }
    function onClick(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(anchor instanceof HTMLAnchorElement) || (anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return;
      const url = new URL(anchor.href, window.location.href);
      // Another site unloads the page: the browser's own prompt asks then.
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search) return;
      if (window.confirm(LEAVE_MESSAGE)) {
        confirmedLeave = true;
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
    }
    window.addEventListener("beforeunload", onBeforeUnload);
    // Capture on window runs before React's own listeners (the App Router's root is the document).
    window.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("click", onClick, true);
    };
  }, [dirty]);
}

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Storage may be full or disabled (private modes): the editor then works without it. */
function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the draft still lives in the page.
  }
}

export interface StoredDraftState<Draft> {
  /** The draft differs from the saved definition (what Save would change). */
  dirty: boolean;
  /** A draft from an earlier visit, not yet restored or discarded. */
  offer: DraftOffer<Draft> | null;
  /** Hands back the offered draft (the editor sets it) and closes the offer. */
  takeOffer: () => Draft | null;
  /** Drops the offered draft from storage. */
  discardOffer: () => void;
}

/**
 * Keeps the editor's unsaved draft in localStorage under `storageKey` (see draft-persistence.ts)
 * while it differs from `saved`, and removes it once it does not (saved, or edited back). On the
 * first visit after a reload it offers the stored draft; until the offer is answered, the entry
 * is left as it is unless the owner starts editing (the offer then stays in memory).
 */
export function useStoredDraft<Draft>(options: {
  storageKey: string;
  draft: Draft;
  saved: Draft;
  toInput: (draft: Draft) => unknown;
  isDraft: (value: unknown) => value is Draft;
}): StoredDraftState<Draft> {
  const { storageKey, draft, saved, toInput, isDraft } = options;
  const [offer, setOffer] = useState<DraftOffer<Draft> | null>(null);
  const dirty = useMemo(() => hasUnsavedChanges(draft, saved, toInput), [draft, saved, toInput]);
  const initial = useRef({ saved, toInput, isDraft });
  // The key whose stored draft was read. A ref, not state: reading storage that holds no draft (the
  // usual visit) must not render the whole editor a second time right after hydration.
  const readKey = useRef<string | null>(null);

  useEffect(() => {
    if (readKey.current !== storageKey) {
      readKey.current = storageKey;
      const { saved: savedAtLoad, toInput: convert, isDraft: check } = initial.current;
      // Storage exists only in the browser: read after hydration, so the server's HTML matches.
      const found = readStoredDraft(readStorage(storageKey), { saved: savedAtLoad, toInput: convert, isDraft: check, makeKey: () => newKey("restored") });
      if (found || offer) setOffer(found);
      // The entry stays as it is until the offer is answered: this effect runs again with it in state.
      if (found) return;
    }
    if (!dirty) {
      if (!offer) writeStorage(storageKey, null);
      return;
    }
    const write = () => writeStorage(storageKey, serializeStoredDraft({ draft, saved, toInput, now: new Date() }));
    // Written after a pause in typing rather than on every keystroke, and at once when the page goes
    // away (a reload within the pause would otherwise lose the last keystrokes).
    const timer = window.setTimeout(write, 400);
    window.addEventListener("pagehide", write);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener("pagehide", write);
    };
  }, [dirty, offer, draft, saved, toInput, storageKey]);

  const takeOffer = useCallback(() => {
    const taken = offer?.draft ?? null;
    setOffer(null);
    return taken;
  }, [offer]);
  const discardOffer = useCallback(() => {
    setOffer(null);
    writeStorage(storageKey, null);
  }, [storageKey]);

  return { dirty, offer, takeOffer, discardOffer };
}

/**
 * "Restore unsaved changes from <time>?" with Restore and Discard. Once answered it leaves a short
 * status line in its place and moves focus there, so keyboard focus is not lost with the buttons.
 */
export function RestoreDraftBanner<Draft>({ offer, noun, onRestore, onDiscard }: { offer: DraftOffer<Draft> | null; noun: string; onRestore: () => void; onDiscard: () => void }) {
  const [answer, setAnswer] = useState<"restored" | "discarded">();
  const statusRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (answer) statusRef.current?.focus();
  }, [answer]);

  if (answer) {
    return (
      <p ref={statusRef} tabIndex={-1} role="status" className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm text-slate-700 focus:outline-none">
        {answer === "restored" ? `Unsaved changes restored. Save the ${noun} to keep them.` : "Unsaved changes discarded."}
      </p>
    );
  }
  if (!offer) return null;
  return (
    <div role="region" aria-label="Unsaved changes" className="flex flex-wrap items-center gap-3 rounded-md border border-sky-300 bg-sky-50 px-4 py-3 text-sm text-sky-950">
      <p className="min-w-0 flex-1">
        Restore unsaved changes from <time dateTime={offer.storedAt.toISOString()}>{formatRunTime(offer.storedAt.toISOString())}</time>?
        {offer.savedChangedSince && ` The ${noun} was saved again since then: restoring replaces that version in the editor (nothing is saved until you save).`}
      </p>
      <span className="flex gap-2">
        <Button
          size="sm"
          onClick={() => {
            onRestore();
            setAnswer("restored");
          }}
        >
          Restore
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => {
            onDiscard();
            setAnswer("discarded");
          }}
        >
          Discard
        </Button>
      </span>
    </div>
  );
}

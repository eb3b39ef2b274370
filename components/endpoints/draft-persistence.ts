/**
 * Unsaved editor drafts kept in the browser's storage, so that a reload or a closed tab does not
 * lose work: one entry per editor and saved definition (or per project for a new one). Pure
 * functions; the editor shell (editor-shell.tsx) reads and writes the storage.
 */

/** Bumped when the stored shape changes: entries of another format are dropped rather than misread. */
const STORED_DRAFT_FORMAT = 1;

export type DraftOwnerKind = "endpoint" | "automation";

export interface StoredDraft<Draft> {
  format: typeof STORED_DRAFT_FORMAT;
  /** When the draft was last written (ISO 8601). */
  storedAt: string;
  /** The saved definition the draft started from, as a fingerprint: tells whether it was saved since. */
  baseFingerprint: string;
  draft: Draft;
}

/** A stored draft the editor may offer to restore. */
export interface DraftOffer<Draft> {
  draft: Draft;
  storedAt: Date;
  /** The saved definition changed after the draft was stored (another tab or person saved it). */
  savedChangedSince: boolean;
}

/** `null` stands for a definition not saved yet (the "new" page of the project). */
export function draftStorageKey(kind: DraftOwnerKind, projectId: string, id: string | null): string {
  return `flowpoint:draft:${kind}:${projectId}:${id ?? "new"}`;
}

/**
 * What a draft would save, as text: two drafts with the same fingerprint save the same definition.
 * Row and step keys (React identities) are not part of it, as `toInput` leaves them out.
 */
export function draftFingerprint<Draft>(draft: Draft, toInput: (draft: Draft) => unknown): string {
  return JSON.stringify(toInput(draft));
}

export function hasUnsavedChanges<Draft>(draft: Draft, saved: Draft, toInput: (draft: Draft) => unknown): boolean {
  return draftFingerprint(draft, toInput) !== draftFingerprint(saved, toInput);
}

export function serializeStoredDraft<Draft>(options: { draft: Draft; saved: Draft; toInput: (draft: Draft) => unknown; now: Date }): string {
  const stored: StoredDraft<Draft> = {
    format: STORED_DRAFT_FORMAT,
    storedAt: options.now.toISOString(),
    baseFingerprint: draftFingerprint(options.saved, options.toInput),
    draft: options.draft,
  };
  return JSON.stringify(stored);
}

/**
 * True when `value` has every top-level field of `template` with the same kind of value (arrays as
 * arrays, objects as objects). Enough to refuse an entry written by an older editor, whose fields
 * the forms could not show; the server validates what is saved in any case.
 */
export function hasShapeOf(value: unknown, template: object): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return Object.entries(template).every(([name, expected]) => {
    const actual = record[name];
    if (Array.isArray(expected)) return Array.isArray(actual);
    if (expected === null) return actual === null;
    if (typeof expected === "object") return actual !== null && typeof actual === "object" && !Array.isArray(actual);
    return typeof actual === typeof expected;
  });
}

/**
 * The draft with new keys on every object inside an array (steps, rows, checks): keys are made by a
 * page-wide counter that restarts on reload, so restored keys would collide with the next new ones.
 */
export function withFreshKeys<Value>(value: Value, makeKey: (old: string) => string): Value {
  function walk(item: unknown, inArray: boolean): unknown {
    if (Array.isArray(item)) return item.map((element) => walk(element, true));
    if (item === null || typeof item !== "object") return item;
    const copy: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(item)) copy[name] = inArray && name === "key" && typeof field === "string" ? makeKey(field) : walk(field, false);
    return copy;
  }
  return walk(value, false) as Value;
}

/**
 * The stored entry as an offer to restore, or null when there is nothing worth offering: no entry,
 * text that is not an entry of this format, a draft of another shape, or one that saves the same
 * definition as the saved one (restoring it would change nothing).
 */
export function readStoredDraft<Draft>(
  text: string | null,
  options: { saved: Draft; toInput: (draft: Draft) => unknown; isDraft: (value: unknown) => value is Draft; makeKey: (old: string) => string },
): DraftOffer<Draft> | null {
  if (!text) return null;
  let stored: Partial<StoredDraft<unknown>>;
  try {
    stored = JSON.parse(text) as Partial<StoredDraft<unknown>>;
  } catch {
    return null;
  }
  if (stored === null || typeof stored !== "object" || stored.format !== STORED_DRAFT_FORMAT) return null;
  const storedAt = new Date(typeof stored.storedAt === "string" ? stored.storedAt : Number.NaN);
  if (Number.isNaN(storedAt.getTime()) || !options.isDraft(stored.draft)) return null;
  let draft: Draft;
  try {
    draft = withFreshKeys(stored.draft, options.makeKey);
    if (!hasUnsavedChanges(draft, options.saved, options.toInput)) return null;
  } catch {
    // A draft of the right shape whose insides the conversion cannot read: not worth offering.
    return null;
  }
  return { draft, storedAt, savedChangedSince: stored.baseFingerprint !== draftFingerprint(options.saved, options.toInput) };
}

/**
 * After a save fails, the owner is taken to the first field marked invalid instead of reading "fix
 * the marked fields" far below them. Document order is editor order, so the first match wins: a
 * control with aria-invalid, or an error text (`<id>-error`) whose control cannot carry the mark
 * (a radio group, a list of checks).
 */

const MARKED = '[aria-invalid="true"], [id$="-error"]:not([role="alert"])';

export interface FocusableField {
  readonly id: string;
  getAttribute(name: string): string | null;
  focus(options?: { preventScroll?: boolean }): void;
  scrollIntoView(options?: { block?: "start" | "center" | "end" | "nearest"; behavior?: "auto" | "smooth" }): void;
  tabIndex: number;
}

export interface FieldRoot<E extends FocusableField> {
  querySelector(selector: string): E | null;
}

/** The element to take the owner to: the first marked control, or the control an error text describes, else that text. */
export function firstMarkedField<E extends FocusableField>(root: FieldRoot<E>): { target: E; control: boolean } | null {
  const first = root.querySelector(MARKED);
  if (first === null) return null;
  if (first.getAttribute("aria-invalid") === "true") return { target: first, control: true };
  const described = root.querySelector(`[aria-describedby~="${cssEscape(first.id)}"]`);
  if (described !== null) return { target: described, control: true };
  const byId = root.querySelector(`#${cssEscape(first.id.replace(/-error$/, ""))}`);
  if (byId !== null && isControl(byId)) return { target: byId, control: true };
  return { target: first, control: false };
}

function isControl(element: FocusableField): boolean {
  return element.tabIndex >= 0;
}

function cssEscape(text: string): string {
  return typeof CSS !== "undefined" && typeof CSS.escape === "function" ? CSS.escape(text) : text.replace(/[^a-zA-Z0-9_-]/g, (character) => `\\${character}`);
}

/** Scrolls the first marked field to the middle of the view and focuses it (an error text becomes focusable to be read). Answers whether one was found. */
export function focusFirstMarkedField<E extends FocusableField>(root: FieldRoot<E>, options: { reducedMotion?: boolean } = {}): boolean {
  const found = firstMarkedField(root);
  if (found === null) return false;
  const { target, control } = found;
  if (!control) target.tabIndex = -1;
  target.scrollIntoView({ block: "center", behavior: options.reducedMotion ? "auto" : "smooth" });
  target.focus({ preventScroll: true });
  return true;
}

/**
 * The flow editors' keyboard shortcuts: save (Ctrl+S, ⌘S on Apple keyboards) and run the test
 * (Ctrl+Enter, ⌘Enter). They work from inside any field, which is where the hands are when a
 * change is ready; a field that handled the key itself (its handler called preventDefault) keeps it.
 */

export type EditorShortcut = "save" | "run";

export interface ShortcutKeyEvent {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  repeat?: boolean;
  isComposing?: boolean;
  defaultPrevented?: boolean;
}

/** `aria-keyshortcuts` values: both modifiers are listed, as both are accepted on every platform. */
export const EDITOR_SHORTCUT_ARIA: Record<EditorShortcut, string> = {
  save: "Control+S Meta+S",
  run: "Control+Enter Meta+Enter",
};

export function editorShortcutOf(event: ShortcutKeyEvent): EditorShortcut | null {
  // A held key would save or start runs over and over; an IME composing text owns its keys.
  if (event.repeat || event.isComposing || event.defaultPrevented) return null;
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return null;
  if (event.key === "Enter") return "run";
  if (event.key.toLowerCase() === "s") return "save";
  return null;
}

/** Apple keyboards say ⌘ where others say Ctrl. */
export function isApplePlatform(platform: string): boolean {
  return /mac|iphone|ipad|ipod/i.test(platform);
}

export function shortcutLabel(shortcut: EditorShortcut, apple: boolean): string {
  const modifier = apple ? "⌘" : "Ctrl+";
  return `${modifier}${shortcut === "save" ? "S" : "Enter"}`;
}

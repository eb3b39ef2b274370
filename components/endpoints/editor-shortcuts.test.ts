import { describe, expect, it } from "vitest";
import { EDITOR_SHORTCUT_ARIA, editorShortcutOf, isApplePlatform, shortcutLabel, type ShortcutKeyEvent } from "./editor-shortcuts";

function press(key: string, modifiers: Partial<ShortcutKeyEvent> = {}): ShortcutKeyEvent {
  return { key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...modifiers };
}

describe("editor shortcuts", () => {
  it("saves on Ctrl+S and ⌘S, whatever the letter's case (Caps Lock)", () => {
    expect(editorShortcutOf(press("s", { ctrlKey: true }))).toBe("save");
    expect(editorShortcutOf(press("s", { metaKey: true }))).toBe("save");
    expect(editorShortcutOf(press("S", { ctrlKey: true }))).toBe("save");
  });

  it("runs on Ctrl+Enter and ⌘Enter", () => {
    expect(editorShortcutOf(press("Enter", { ctrlKey: true }))).toBe("run");
    expect(editorShortcutOf(press("Enter", { metaKey: true }))).toBe("run");
  });

  it("leaves plain keys, other combinations, held keys, IME composition and handled keys alone", () => {
    expect(editorShortcutOf(press("s"))).toBeNull();
    expect(editorShortcutOf(press("Enter"))).toBeNull();
    expect(editorShortcutOf(press("Enter", { shiftKey: true }))).toBeNull();
    expect(editorShortcutOf(press("s", { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(editorShortcutOf(press("s", { ctrlKey: true, altKey: true }))).toBeNull();
    expect(editorShortcutOf(press("a", { ctrlKey: true }))).toBeNull();
    expect(editorShortcutOf(press("s", { ctrlKey: true, repeat: true }))).toBeNull();
    expect(editorShortcutOf(press("Enter", { ctrlKey: true, isComposing: true }))).toBeNull();
    expect(editorShortcutOf(press("Enter", { ctrlKey: true, defaultPrevented: true }))).toBeNull();
  });

  it("names the keys the way the platform's keyboard does, and lists both modifiers for assistive technology", () => {
    expect(isApplePlatform("MacIntel")).toBe(true);
    expect(isApplePlatform("iPhone")).toBe(true);
    expect(isApplePlatform("Linux x86_64")).toBe(false);
    expect(shortcutLabel("save", true)).toBe("⌘S");
    expect(shortcutLabel("run", false)).toBe("Ctrl+Enter");
    expect(EDITOR_SHORTCUT_ARIA.save).toBe("Control+S Meta+S");
  });
});

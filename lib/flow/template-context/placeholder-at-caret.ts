/**
 * Where the caret stands inside a placeholder being typed, and how a chosen suggestion is written
 * into the text. Pure, for the autocomplete of the editor's template fields.
 */
export interface PlaceholderAtCaret {
  /** Offset of the first character after `{{`. */
  readonly innerStart: number;
  /** The path typed between `{{` and the caret, leading spaces removed. */
  readonly typed: string;
  /** Offset where the path being typed ends (the caret, or the end of the word the caret is in). */
  readonly innerEnd: number;
  /** True when `}}` already follows the path. */
  readonly closed: boolean;
}

const PATH_CHAR = /[^\s{}]/;

/** The placeholder the caret is typing into, or null when it is not between `{{` and its `}}`. */
export function findPlaceholderAtCaret(text: string, caret: number): PlaceholderAtCaret | null {
  const open = text.lastIndexOf("{{", caret - 2);
  if (open === -1 || caret < open + 2) return null;
  const between = text.slice(open + 2, caret);
  const typed = between.trimStart();
  if (/[{}\s]/.test(typed)) return null;
  let end = caret;
  while (end < text.length && PATH_CHAR.test(text[end]!) && text[end] !== ".") end += 1;
  const after = text.slice(end).match(/^\s*\}\}/);
  return { innerStart: open + 2, typed, innerEnd: end, closed: after !== null };
}

/**
 * The text with a suggestion's path written at the caret's placeholder: a value with fields gets a
 * trailing dot (the list continues), any other closes the braces unless they are already closed.
 * Answers the new text and the caret after the insertion.
 */
export function insertPlaceholderPath(text: string, at: PlaceholderAtCaret, path: string, continues: boolean): { text: string; caret: number } {
  const leading = text.slice(at.innerStart).match(/^\s*/)?.[0] ?? "";
  const start = at.innerStart + leading.length;
  const rest = text.slice(at.innerEnd);
  if (continues) {
    const insertion = `${path}.`;
    // A dot already typed after the word is reused, not doubled.
    const tail = rest.startsWith(".") ? rest.slice(1) : rest;
    return { text: text.slice(0, start) + insertion + tail, caret: start + insertion.length };
  }
  // More path after the word (the caret was in the middle of one): only the word is replaced.
  const closing = at.closed || rest.startsWith(".") ? "" : "}}";
  const inserted = path + closing;
  const caretAfter = at.closed ? start + path.length + (rest.match(/^\s*\}\}/)?.[0].length ?? 0) : start + inserted.length;
  return { text: text.slice(0, start) + inserted + rest, caret: caretAfter };
}

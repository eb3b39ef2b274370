import { describe, expect, it } from "vitest";
import { findPlaceholderAtCaret, insertPlaceholderPath } from "./placeholder-at-caret";

function at(textWithCaret: string) {
  const caret = textWithCaret.indexOf("|");
  const text = textWithCaret.replace("|", "");
  return { text, caret, found: findPlaceholderAtCaret(text, caret) };
}

function choose(textWithCaret: string, path: string, continues: boolean): string {
  const { text, found } = at(textWithCaret);
  if (!found) throw new Error("no placeholder at the caret");
  const result = insertPlaceholderPath(text, found, path, continues);
  return `${result.text.slice(0, result.caret)}|${result.text.slice(result.caret)}`;
}

describe("findPlaceholderAtCaret", () => {
  it("finds the path typed after {{ up to the caret", () => {
    expect(at("a {{|").found).toEqual({ innerStart: 4, typed: "", innerEnd: 4, closed: false });
    expect(at("a {{ steps.ti|").found).toMatchObject({ typed: "steps.ti", closed: false });
    expect(at("{{steps.ti|ckets}} x").found).toMatchObject({ typed: "steps.ti", innerEnd: 15, closed: true });
  });

  it("answers null outside a placeholder", () => {
    expect(at("plain| text").found).toBeNull();
    expect(at("{{body.a}} and |").found).toBeNull();
    expect(at("{{body.a b|").found).toBeNull();
    expect(at("{|").found).toBeNull();
  });
});

describe("insertPlaceholderPath", () => {
  it("continues with a dot for values with fields and closes the braces for leaves", () => {
    expect(choose("x {{st|", "steps", true)).toBe("x {{steps.|");
    expect(choose("x {{steps.tickets.0.ti|", "steps.tickets.0.title", false)).toBe("x {{steps.tickets.0.title}}|");
  });

  it("does not double braces or dots already there", () => {
    expect(choose("{{steps.ti|}} rest", "steps.tickets", false)).toBe("{{steps.tickets}}| rest");
    expect(choose("{{ steps.ti| }} rest", "steps.tickets", false)).toBe("{{ steps.tickets }}| rest");
    expect(choose("{{steps.ti|ckets.title}}", "steps.tickets", true)).toBe("{{steps.tickets.|title}}");
    expect(choose("{{steps.ti|ckets.title}}", "steps.tickets", false)).toBe("{{steps.tickets|.title}}");
  });
});

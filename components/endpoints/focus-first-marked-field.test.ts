import { describe, expect, it } from "vitest";
import { firstMarkedField, focusFirstMarkedField, type FocusableField } from "./focus-first-marked-field";

class FakeElement implements FocusableField {
  focused = false;
  scrolled: unknown = null;
  constructor(
    readonly id: string,
    private readonly attributes: Record<string, string> = {},
    public tabIndex = 0,
  ) {}
  getAttribute(name: string): string | null {
    return this.attributes[name] ?? null;
  }
  focus(): void {
    this.focused = true;
  }
  scrollIntoView(options?: unknown): void {
    this.scrolled = options ?? {};
  }
}

/** Elements in document order; supports the selectors the helper uses. */
function fakeRoot(elements: FakeElement[]) {
  return {
    querySelector(selector: string): FakeElement | null {
      if (selector.startsWith("[aria-invalid")) {
        return elements.find((element) => element.getAttribute("aria-invalid") === "true" || (element.id.endsWith("-error") && element.getAttribute("role") !== "alert")) ?? null;
      }
      const described = /^\[aria-describedby~="(.+)"\]$/.exec(selector);
      if (described) return elements.find((element) => (element.getAttribute("aria-describedby") ?? "").split(" ").includes(described[1]!)) ?? null;
      if (selector.startsWith("#")) return elements.find((element) => element.id === selector.slice(1).replace(/\\/g, "")) ?? null;
      return null;
    },
  };
}

describe("first marked field", () => {
  it("takes the first control marked invalid in document order", () => {
    const slug = new FakeElement("endpoint-slug", { "aria-invalid": "true" });
    const url = new FakeElement("s-1-url", { "aria-invalid": "true" });
    expect(firstMarkedField(fakeRoot([new FakeElement("endpoint-name"), slug, url]))).toEqual({ target: slug, control: true });
  });

  it("goes from an error text to the control it describes, or the control with its id", () => {
    const error = new FakeElement("endpoint-auth-error");
    const radio = new FakeElement("endpoint-auth-public", { "aria-describedby": "endpoint-auth-error" });
    expect(firstMarkedField(fakeRoot([error, radio]))?.target).toBe(radio);
    const checksError = new FakeElement("s-2-checks-error");
    const byId = new FakeElement("s-2-checks");
    expect(firstMarkedField(fakeRoot([checksError, byId]))).toEqual({ target: byId, control: true });
  });

  it("falls back to the error text itself, made focusable so that it is read", () => {
    const error = new FakeElement("steps-error", {}, -1);
    const root = fakeRoot([new FakeElement("form-alert-error", { role: "alert" }), error]);
    expect(focusFirstMarkedField(root, { reducedMotion: true })).toBe(true);
    expect(error.focused).toBe(true);
    expect(error.tabIndex).toBe(-1);
    expect(error.scrolled).toEqual({ block: "center", behavior: "auto" });
  });

  it("scrolls smoothly unless reduced motion is asked for, and reports when nothing is marked", () => {
    const slug = new FakeElement("endpoint-slug", { "aria-invalid": "true" });
    expect(focusFirstMarkedField(fakeRoot([slug]))).toBe(true);
    expect(slug.focused).toBe(true);
    expect(slug.scrolled).toEqual({ block: "center", behavior: "smooth" });
    expect(focusFirstMarkedField(fakeRoot([new FakeElement("endpoint-name")]))).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { createFlowContext } from "./context";
import { escapeHtml } from "./escape-html";
import { looksLikeJsonTemplate, renderJsonTemplate } from "./render-json-template";
import { hasPlaceholders, parseTemplate, renderTemplate, renderValue, resolveValue } from "./render-template";

function scope() {
  const context = createFlowContext({
    body: {
      name: "Ada",
      age: 36,
      active: true,
      nothing: null,
      tags: ["a", "b", "c"],
      address: { city: "Paris", zip: "75001" },
      empty: "",
      "first-name": "Ada L.",
      trick: "{{body.name}}",
      length: "own length field",
    },
    query: { page: "2", ids: ["1", "2"] },
    user: { id: "usr_1", email: "ada@example.test" },
  });
  context.steps.tickets = [
    { id: "t1", title: "Printer", status: "open" },
    { id: "t2", title: "Laptop", status: "closed" },
  ];
  context.steps.count = 0;
  context.steps.summary = { open: 1, closed: 1 };
  return context;
}

describe("renderTemplate: paths", () => {
  const ctx = scope();

  it("reads dotted paths under every root", () => {
    expect(renderTemplate("{{body.name}} / {{query.page}} / {{user.email}} / {{trigger.address.city}}", ctx)).toBe("Ada / 2 / ada@example.test / Paris");
  });

  it("indexes arrays with numbers, also nested in step outputs", () => {
    expect(renderTemplate("{{steps.tickets.1.title}} {{body.tags.0}}{{body.tags.2}} {{query.ids.1}}", ctx)).toBe("Laptop ac 2");
  });

  it("counts arrays and strings with .length", () => {
    expect(renderTemplate("{{steps.tickets.length}} {{body.tags.length}} {{body.name.length}} {{body.empty.length}}", ctx)).toBe("2 3 3 0");
  });

  it("reads an own field called length on an object", () => {
    expect(renderTemplate("{{body.length}}", ctx)).toBe("own length field");
  });

  it("allows whitespace inside the braces", () => {
    expect(renderTemplate("{{ body.name }}-{{   steps.tickets.0.id\t}}", ctx)).toBe("Ada-t1");
  });

  it("accepts keys with dashes", () => {
    expect(renderTemplate("{{body.first-name}}", ctx)).toBe("Ada L.");
  });
});

describe("renderTemplate: unknown placeholders stay visible", () => {
  const ctx = scope();

  it.each([
    ["an unknown field", "{{body.missing}}"],
    ["a path through a missing object", "{{body.missing.deeper}}"],
    ["an unknown root", "{{secrets.key}}"],
    ["an index out of range", "{{steps.tickets.5.title}}"],
    ["a negative index", "{{body.tags.-1}}"],
    ["a non-numeric segment on an array", "{{body.tags.first}}"],
    ["an index into a string", "{{body.name.0}}"],
    ["a field of a number", "{{body.age.value}}"],
    ["a field of null", "{{body.nothing.x}}"],
    ["an unknown step", "{{steps.nope}}"],
    ["an empty placeholder", "{{}}"],
    ["a placeholder with logic", "{{body.name || 'x'}}"],
    ["a placeholder with an inner space", "{{body. name}}"],
    ["a root alone with a trailing dot", "{{body.}}"],
  ])("%s", (_label, template) => {
    expect(renderTemplate(`before ${template} after`, ctx)).toBe(`before ${template} after`);
  });

  it("keeps the original spelling, whitespace included", () => {
    expect(renderTemplate("{{  body.missing  }}", ctx)).toBe("{{  body.missing  }}");
  });
});

describe("renderTemplate: own properties only", () => {
  const ctx = scope();

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"])("body.%s is unknown", (name) => {
    expect(renderTemplate(`{{body.${name}}}`, ctx)).toBe(`{{body.${name}}}`);
  });

  it("prototype paths further down are unknown too", () => {
    expect(renderTemplate("{{body.address.constructor.name}}", ctx)).toBe("{{body.address.constructor.name}}");
    expect(renderTemplate("{{steps.tickets.constructor}}", ctx)).toBe("{{steps.tickets.constructor}}");
    expect(renderTemplate("{{body.name.constructor}}", ctx)).toBe("{{body.name.constructor}}");
  });

  it("a JSON body that really has such keys reads them (they are own properties)", () => {
    const parsed = JSON.parse('{"constructor":"mine","__proto__":{"x":1}}') as Record<string, unknown>;
    const context = createFlowContext({ body: parsed });
    expect(renderTemplate("{{body.constructor}} {{body.__proto__.x}}", context)).toBe("mine 1");
  });
});

describe("renderTemplate: values in text", () => {
  const ctx = scope();

  it("writes arrays and objects as JSON", () => {
    expect(renderTemplate("tags={{body.tags}} summary={{steps.summary}}", ctx)).toBe('tags=["a","b","c"] summary={"open":1,"closed":1}');
    expect(renderTemplate("{{steps.tickets}}", ctx)).toBe(JSON.stringify(ctx.steps.tickets));
  });

  it("writes numbers, booleans and null as JSON text, strings as they are", () => {
    expect(renderTemplate("{{body.age}} {{body.active}} {{body.nothing}} {{steps.count}} [{{body.empty}}]", ctx)).toBe("36 true null 0 []");
  });

  it("never renders a value again: data that looks like a placeholder stays text", () => {
    expect(renderTemplate("{{body.trick}}", ctx)).toBe("{{body.name}}");
    expect(renderValue("{{body.trick}}", ctx)).toBe("{{body.name}}");
  });

  it("escapes inserted values only when asked, never the template's own text", () => {
    const context = createFlowContext({ body: { name: '<script>alert("x")</script> & co' } });
    expect(renderTemplate("<p>{{body.name}}</p>", context, { escape: escapeHtml })).toBe("<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co</p>");
    expect(renderTemplate("<p>{{body.name}}</p>", context)).toBe('<p><script>alert("x")</script> & co</p>');
  });

  it("handles braces next to placeholders (JSON objects around them)", () => {
    expect(renderTemplate('{"user":{{user}}}', ctx)).toBe('{"user":{"id":"usr_1","email":"ada@example.test"}}');
    expect(renderTemplate("{{{body.name}}}", ctx)).toBe("{Ada}");
  });

  it("returns text without placeholders unchanged", () => {
    expect(renderTemplate("plain { text } with {braces}", ctx)).toBe("plain { text } with {braces}");
  });
});

describe("renderValue: a single placeholder keeps its type", () => {
  const ctx = scope();

  it("numbers, booleans, null, arrays and objects keep their type", () => {
    expect(renderValue("{{body.age}}", ctx)).toBe(36);
    expect(renderValue("{{body.active}}", ctx)).toBe(true);
    expect(renderValue("{{body.nothing}}", ctx)).toBeNull();
    expect(renderValue("{{body.tags}}", ctx)).toEqual(["a", "b", "c"]);
    expect(renderValue("{{steps.summary}}", ctx)).toEqual({ open: 1, closed: 1 });
    expect(renderValue("{{steps.tickets.length}}", ctx)).toBe(2);
  });

  it("the value is the context's own value, not a copy", () => {
    expect(renderValue("{{steps.tickets}}", ctx)).toBe(ctx.steps.tickets);
  });

  it("whitespace around the one placeholder still keeps the type", () => {
    expect(renderValue("  {{ body.age }} ", ctx)).toBe(36);
  });

  it("text around it, or two placeholders, make a string", () => {
    expect(renderValue("age {{body.age}}", ctx)).toBe("age 36");
    expect(renderValue("{{body.age}}{{body.age}}", ctx)).toBe("3636");
  });

  it("an unknown single placeholder stays its text", () => {
    expect(renderValue("{{body.missing}}", ctx)).toBe("{{body.missing}}");
    expect(resolveValue("{{body.missing}}", ctx)).toEqual({ missing: true, value: "{{body.missing}}" });
    expect(resolveValue("{{body.nothing}}", ctx)).toEqual({ missing: false, value: null });
  });

  it("renders arrays and objects element by element and leaves other JSON alone", () => {
    expect(renderValue({ title: "{{body.name}}", age: "{{body.age}}", fixed: 5, flag: false, list: ["{{body.tags.0}}", 1] }, ctx)).toEqual({
      title: "Ada",
      age: 36,
      fixed: 5,
      flag: false,
      list: ["a", 1],
    });
  });

  it("a __proto__ key in rendered values is a field, not a prototype", () => {
    const values = JSON.parse('{"__proto__":"{{body.name}}"}') as Record<string, unknown>;
    const rendered = renderValue(values, ctx) as Record<string, unknown>;
    expect(Object.getPrototypeOf(rendered)).toBe(Object.prototype);
    expect(Object.hasOwn(rendered, "__proto__")).toBe(true);
    expect(rendered.__proto__).toBe("Ada");
  });
});

describe("parseTemplate", () => {
  it("is cached: the same text parses to the same object", () => {
    expect(parseTemplate("hello {{body.name}}")).toBe(parseTemplate("hello {{body.name}}"));
  });

  it("tells templates with placeholders apart", () => {
    expect(hasPlaceholders("{{body.x}}")).toBe(true);
    expect(hasPlaceholders("{{nope.x}} and {single}")).toBe(false);
  });
});

describe("renderJsonTemplate", () => {
  const context = createFlowContext({ body: { name: 'Ann "The Hammer"\n\\', count: 3, tags: ["x"], plain: "ok" } });

  it("escapes values inside JSON string literals so they cannot break out", () => {
    const rendered = renderJsonTemplate('{"name": "{{body.name}}", "note": "hi {{body.plain}}"}', context);
    expect(JSON.parse(rendered)).toEqual({ name: 'Ann "The Hammer"\n\\', note: "hi ok" });
  });

  it("keeps values outside string literals as text rendering does", () => {
    expect(JSON.parse(renderJsonTemplate('{"count": {{body.count}}, "tags": {{body.tags}}}', context))).toEqual({ count: 3, tags: ["x"] });
  });

  it("tracks escaped quotes in the template's own text", () => {
    expect(JSON.parse(renderJsonTemplate('{"a": "say \\"{{body.plain}}\\"", "b": {{body.count}}}', context))).toEqual({ a: 'say "ok"', b: 3 });
  });

  it("blocks field injection through a string value", () => {
    const evil = createFlowContext({ body: { name: '", "admin": true, "x": "' } });
    expect(JSON.parse(renderJsonTemplate('{"name": "{{body.name}}"}', evil))).toEqual({ name: '", "admin": true, "x": "' });
  });

  it("leaves unknown placeholders visible", () => {
    expect(renderJsonTemplate('{"a": "{{body.missing}}"}', context)).toBe('{"a": "{{body.missing}}"}');
  });

  it("recognises JSON body templates", () => {
    expect(looksLikeJsonTemplate('  {"a": 1}')).toBe(true);
    expect(looksLikeJsonTemplate("[1]")).toBe(true);
    expect(looksLikeJsonTemplate("name={{body.name}}")).toBe(false);
  });
});

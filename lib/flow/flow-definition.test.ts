import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseFlowCached, parseFlowOrThrow, validateFlow } from "./flow-definition";
import { STEP_DEFINITIONS, STEP_REGISTRY } from "./steps/registry";
import { STEP_RUNNERS } from "./steps/runners";
import { STEP_KINDS } from "./steps/step-kind";

describe("flow definition", () => {
  it("fills the common fields' defaults", () => {
    expect(parseFlowOrThrow([{ type: "transform", expression: "body" }])).toEqual([{ type: "transform", name: null, enabled: true, continueOnError: false, expression: "body" }]);
  });

  it("treats an empty output name as none", () => {
    expect(parseFlowOrThrow([{ type: "transform", name: "", expression: "body" }])[0]?.name).toBeNull();
    expect(parseFlowOrThrow([{ type: "transform", name: "  total ", expression: "body" }])[0]?.name).toBe("total");
  });

  it("reports every problem with its path", () => {
    const result = validateFlow([
      { type: "transform", name: "dup", expression: "body" },
      { type: "nope" },
      { type: "transform", name: "dup", expression: "body" },
      { type: "transform", name: "9lives", expression: "body" },
      { type: "transform", name: "__proto__", expression: "body" },
      { type: "transform", expression: "body", enabled: "yes" },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path)).toEqual(["steps.1.type", "steps.3.name", "steps.4.name", "steps.5.enabled"]);
  });

  it("output names are unique", () => {
    const result = validateFlow([
      { type: "transform", name: "dup", expression: "body" },
      { type: "transform", name: "other", expression: "body" },
      { type: "transform", name: "dup", expression: "body" },
    ]);
    expect(result).toEqual({ ok: false, issues: [{ path: "steps.2.name", message: 'output name "dup" is already used by step 0' }] });
  });

  it("a flow has at most 20 steps", () => {
    const step = { type: "transform" as const, expression: "body" };
    expect(validateFlow(Array(20).fill(step)).ok).toBe(true);
    expect(validateFlow(Array(21).fill(step))).toEqual({ ok: false, issues: [{ path: "steps", message: "a flow has at most 20 steps" }] });
  });

  it("refuses what is not an array", () => {
    expect(validateFlow({}).ok).toBe(false);
    expect(() => parseFlowOrThrow("steps")).toThrow(AppError);
  });

  it("parseFlowOrThrow answers 422 with the issues", () => {
    try {
      parseFlowOrThrow([{ type: "transform", expression: "[" }]);
      throw new Error("expected a failure");
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(422);
      expect((error as AppError).issues?.[0]?.path).toBe("steps.0.expression");
    }
  });

  it("parses an array once and answers the same steps afterwards", () => {
    const stored = [{ type: "transform", expression: "body" }];
    const first = parseFlowCached(stored);
    expect(parseFlowCached(stored)).toBe(first);
    const validated = validateFlow(stored);
    if (!validated.ok) throw new Error("expected a valid flow");
    expect(parseFlowCached(validated.steps)).toBe(validated.steps);
  });
});

describe("step registry", () => {
  it("has a definition and a runner for every kind", () => {
    for (const kind of STEP_KINDS) {
      expect(STEP_DEFINITIONS[kind].id).toBe(kind);
      expect(STEP_REGISTRY[kind].label).not.toBe("");
      expect(typeof STEP_RUNNERS[kind]).toBe("function");
    }
    expect(Object.keys(STEP_DEFINITIONS).sort()).toEqual([...STEP_KINDS].sort());
  });

  it("the flow schema takes exactly the registry's kinds", () => {
    for (const kind of STEP_KINDS) {
      const result = validateFlow([{ type: kind, ...STEP_DEFINITIONS[kind].defaults }]);
      const paths = result.ok ? [] : result.issues.map((issue) => issue.path);
      expect(paths, kind).not.toContain("steps.0.type");
    }
    expect(validateFlow([{ type: "nope" }])).toMatchObject({ ok: false, issues: [{ path: "steps.0.type" }] });
  });

  it("every kind's defaults plus a type make a step the editor can start from", () => {
    for (const kind of STEP_KINDS) {
      const parsed = STEP_DEFINITIONS[kind].settings.safeParse(STEP_DEFINITIONS[kind].defaults);
      // Defaults may leave required fields empty (a schema to choose); their shape must still be right.
      const problems = parsed.success ? [] : parsed.error.issues.filter((issue) => issue.code === "invalid_type");
      expect(problems, kind).toEqual([]);
    }
  });

  it("definitions and the flow schema import nothing server-only (the editor runs them in the browser)", async () => {
    const { readFile } = await import("node:fs/promises");
    const path = await import("node:path");
    const root = process.cwd();
    const seen = new Set<string>();
    const external = new Set<string>();
    const pending = [path.join(root, "lib/flow/steps/registry.ts"), path.join(root, "lib/flow/flow-definition.ts")];
    while (pending.length > 0) {
      const file = pending.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      const source = await readFile(file, "utf8");
      // Type-only imports vanish at build time and may point anywhere.
      for (const match of source.matchAll(/^import\s+(?!type\s)[^;]*?from\s+"([^"]+)"/gm)) {
        const specifier = match[1] as string;
        if (specifier.startsWith("@/")) pending.push(path.join(root, `${specifier.slice(2)}.ts`));
        else if (specifier.startsWith(".")) pending.push(path.resolve(path.dirname(file), `${specifier}.ts`));
        else external.add(specifier);
      }
    }
    expect([...external].sort()).toEqual(["@jmespath-community/jmespath", "zod"]);
    const relative = [...seen].map((file) => path.relative(root, file));
    expect(relative.filter((file) => /\/run\.ts$|runners\.ts$|lib\/log\.ts$|run-flow\.ts$/.test(file))).toEqual([]);
  });
});

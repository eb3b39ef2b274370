import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_ACTION_COVERAGE } from "@/e2e/tenant-isolation-inventory";

/**
 * The tenant-isolation e2e covers the server actions listed in e2e/tenant-isolation-inventory.ts.
 * This compares that list with the actions the app really exports: every file under app/ whose
 * first statement is "use server", and its exported functions.
 */
const ROOT = join(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

function isServerActionFile(source: string): boolean {
  const withoutComments = source.replace(/^\s*(\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)\s*/g, "").trimStart();
  return /^["']use server["'];?/.test(withoutComments);
}

function exportedActions(source: string): string[] {
  const names = [...source.matchAll(/^export\s+(?:async\s+)?function\s+(\w+)/gm)].map((match) => match[1]!);
  names.push(...[...source.matchAll(/^export\s+const\s+(\w+)\s*=/gm)].map((match) => match[1]!));
  return names.sort();
}

function actualInventory(): Record<string, string[]> {
  const inventory: Record<string, string[]> = {};
  for (const file of sourceFiles(join(ROOT, "app"))) {
    const source = readFileSync(file, "utf8");
    if (isServerActionFile(source)) inventory[relative(ROOT, file).split("\\").join("/")] = exportedActions(source);
  }
  return inventory;
}

describe("server actions inventory", () => {
  it("finds the server action files", () => {
    expect(Object.keys(actualInventory()).length).toBeGreaterThan(5);
  });

  it("lists every exported server action, and only those, for the tenant-isolation e2e", () => {
    const listed = Object.fromEntries(Object.entries(SERVER_ACTION_COVERAGE).map(([file, actions]) => [file, Object.keys(actions).sort()]));
    expect(listed).toEqual(actualInventory());
  });

  it("says for each action either that it is called across tenants or why it takes no tenant id", () => {
    for (const [file, actions] of Object.entries(SERVER_ACTION_COVERAGE)) {
      for (const [name, coverage] of Object.entries(actions)) {
        expect(coverage === "cross-tenant" || /^self-only: .{10,}/.test(coverage), `${file} ${name}`).toBe(true);
      }
    }
  });

  it("keeps every action that takes a project, workspace, record, endpoint, key, secret or token id in the cross-tenant sweep", () => {
    for (const [file, actions] of Object.entries(SERVER_ACTION_COVERAGE)) {
      const source = readFileSync(join(ROOT, file), "utf8");
      for (const [name, coverage] of Object.entries(actions)) {
        const signature = new RegExp(`export\\s+async\\s+function\\s+${name}\\s*\\(([^)]*)\\)`).exec(source)?.[1] ?? "";
        if (/\b(projectId|workspaceId|endpointId|keyId|userId|token|name|id)\s*:/.test(signature)) expect(coverage, `${file} ${name}`).toBe("cross-tenant");
      }
    }
  });
});

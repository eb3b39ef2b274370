import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_ACTION_COVERAGE } from "@/e2e/tenant-isolation-inventory";

/**
 * The tenant-isolation e2e covers the server actions listed in e2e/tenant-isolation-inventory.ts;
 * the files of VITEST_ISOLATION_SUITES are swept across tenants by a vitest suite instead, against
 * the real platform and customer databases. This compares both lists with the actions the app
 * really exports: every file under app/ whose first statement is "use server", and its exported
 * functions.
 */
const ROOT = join(import.meta.dirname, "..");

/**
 * Action file → the suite that calls each of its actions with another workspace's ids. The suite
 * names every action in its `CASES` table (and checks at run time that the table matches the file).
 */
const VITEST_ISOLATION_SUITES: Record<string, string> = {
  "app/(dashboard)/projects/[projectId]/automations/actions.ts": "test/automation-actions.security.test.ts",
  "app/(dashboard)/projects/[projectId]/records/actions.ts": "test/record-actions.security.test.ts",
};

/**
 * The actions a suite's `CASES` table has cases for (its keys, one per line, each a function of the
 * suite's tenants: the table is static, so it is read here without running the suite).
 */
function suiteCases(suite: string): string[] {
  const source = readFileSync(join(ROOT, suite), "utf8");
  const table = /\nconst CASES\b[^\n]*\n([\s\S]*?)\n\};/.exec(source)?.[1] ?? "";
  return [...table.matchAll(/^ {2}(\w+): \([^)]*\) =>/gm)].map((match) => match[1]!).sort();
}

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

  it("lists every exported server action, and only those, for the tenant-isolation e2e and/or a tenant-isolation suite", () => {
    const listed = Object.fromEntries(Object.entries(SERVER_ACTION_COVERAGE).map(([file, actions]) => [file, Object.keys(actions).sort()]));
    for (const [file, suite] of Object.entries(VITEST_ISOLATION_SUITES)) {
      // Swept by the suite, and by the e2e as well when the inventory lists the file: then both cover it all.
      if (listed[file] !== undefined) expect(listed[file], `${file}: the e2e inventory and ${suite} list the same actions`).toEqual(suiteCases(suite));
      listed[file] = suiteCases(suite);
    }
    expect(listed).toEqual(actualInventory());
  });

  it("has a case in the tenant-isolation suite for every action of the files it sweeps", () => {
    for (const [file, suite] of Object.entries(VITEST_ISOLATION_SUITES)) {
      expect(existsSync(join(ROOT, suite)), suite).toBe(true);
      expect(suiteCases(suite).length, `${suite} has a CASES table`).toBeGreaterThan(0);
      expect(suiteCases(suite), `${suite} sweeps ${file}`).toEqual(exportedActions(readFileSync(join(ROOT, file), "utf8")));
    }
  });

  it("makes every action of a project's dashboard with projectAction (membership, permission and error mapping in one place)", () => {
    const projectFiles = Object.keys(actualInventory()).filter((file) => file.startsWith("app/(dashboard)/projects/[projectId]/"));
    expect(projectFiles.length).toBeGreaterThan(3);
    for (const file of projectFiles) {
      const source = readFileSync(join(ROOT, file), "utf8");
      expect(source, `${file} declares no action by hand`).not.toMatch(/^export\s+(?:async\s+)?function\s/m);
      for (const name of exportedActions(source)) {
        expect(source, `${file} ${name}`).toMatch(new RegExp(`^export\\s+const\\s+${name}\\s*=\\s*projectAction\\(`, "m"));
      }
    }
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
        // An action made with projectAction or workspaceAction takes the project or workspace id first.
        if (new RegExp(`^export\\s+const\\s+${name}\\s*=\\s*(projectAction|workspaceAction)\\(`, "m").test(source)) expect(coverage, `${file} ${name}`).toBe("cross-tenant");
        // Its parameters: those of the function, or of the function given to its wrapper (after the context).
        const signature =
          new RegExp(`export\\s+async\\s+function\\s+${name}\\s*\\(([^)]*)\\)`).exec(source)?.[1] ??
          new RegExp(`^export\\s+const\\s+${name}\\s*=\\s*\\w+Action\\(\\s*async\\s*\\(([^)]*)\\)`, "m").exec(source)?.[1] ??
          "";
        if (/\b(projectId|workspaceId|endpointId|keyId|userId|token|name|id)\s*:/.test(signature)) expect(coverage, `${file} ${name}`).toBe("cross-tenant");
      }
    }
  });
});

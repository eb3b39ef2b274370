import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { getConfig } from "@/lib/config";

const warned = new Set<string>();

/**
 * A secret persisted under DATA_DIR for embedded/development use, created on first need. Production
 * configuration refuses to start without the real variable (lib/config.ts), so this never runs there.
 */
export function readOrCreateGeneratedSecret(fileName: string, variable: string): string {
  const config = getConfig();
  if (config.isProduction) throw new Error(`${variable} is required in production`);
  const file = path.resolve(config.DATA_DIR, fileName);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(file, 0o600);
  } catch {
    // Another process created it first: use theirs.
    return readFileSync(file, "utf8").trim();
  }
  if (!warned.has(variable)) {
    warned.add(variable);
    console.warn(`[config] ${variable} is not set: generated one into ${file} for local use. Set ${variable} in production.`);
  }
  return secret;
}

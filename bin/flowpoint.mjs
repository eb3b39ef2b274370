#!/usr/bin/env node
// The package bin: runs the TypeScript CLI through tsx, resolving the project's `@/` paths from its own tsconfig.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
await import(pathToFileURL(path.join(root, "cli", "main.ts")).href);

import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/**
 * An app instance (the route harness, test/support/serve-harness.ts) in a process of its own, over
 * this process's environment: the multi-process suites run several against one PostgreSQL and one
 * Redis, and may kill one mid-request. Resolves with its URL once it listens.
 */
export function startAppInstance(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("test/support/serve-harness.ts")], {
      env: { ...process.env, NODE_ENV: "test" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on("exit", (code) => reject(new Error(`instance exited with ${code}`)));
  });
}

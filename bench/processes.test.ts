import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitForCommandIdle } from "./processes";

describe("waitForCommandIdle", () => {
  const started: ChildProcess[] = [];
  const folders: string[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) child.kill("SIGKILL");
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  /** A process that keeps a core busy under a command name of its own (`yes`, copied and renamed). */
  function busyProcess(): string {
    const folder = mkdtempSync(path.join(os.tmpdir(), "fp-busy-"));
    folders.push(folder);
    const command = `fpbusy${process.pid % 100_000}`;
    copyFileSync("/usr/bin/yes", path.join(folder, command));
    started.push(spawn(path.join(folder, command), [], { stdio: ["ignore", "ignore", "ignore"] }));
    return command;
  }

  it("answers true when no process of that name uses CPU", async () => {
    expect(await waitForCommandIdle("fpnosuchcommand", 5_000)).toBe(true);
  });

  it("answers false while a process of that name keeps a core busy, and true once it has stopped", async () => {
    const command = busyProcess();
    expect(await waitForCommandIdle(command, 1_500)).toBe(false);
    for (const child of started) child.kill("SIGKILL");
    expect(await waitForCommandIdle(command, 5_000)).toBe(true);
  });
});

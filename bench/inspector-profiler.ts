import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { WebSocket } from "undici";
import type { CpuProfile } from "./summarize-cpu-profile";

/**
 * CPU profiles of the app for one measurement at a time, over the inspector protocol: the app runs
 * with --inspect=127.0.0.1:0 (only with --cpu-prof) and the benchmark starts and stops the V8
 * sampling profiler around each measured run, so start-up and set-up do not blur the picture.
 */
export class InspectorProfiler {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id === undefined) return;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    });
  }

  /** Reads the inspector address the app printed ("Debugger listening on ws://…") and connects. */
  static async connectFromLog(logFile: string, timeoutMs = 30_000): Promise<InspectorProfiler> {
    const deadline = Date.now() + timeoutMs;
    let url: string | undefined;
    while (!url && Date.now() < deadline) {
      url = /Debugger listening on (ws:\/\/\S+)/.exec(readFileSync(logFile, "utf8"))?.[1];
      if (!url) await sleep(100);
    }
    if (!url) throw new Error(`the app printed no inspector address in ${logFile}`);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error(`could not connect to the app's inspector at ${url}`)), { once: true });
    });
    const profiler = new InspectorProfiler(socket);
    await profiler.send("Profiler.enable");
    return profiler;
  }

  private send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  async start(samplingIntervalMicroseconds = 500): Promise<void> {
    await this.send("Profiler.setSamplingInterval", { interval: samplingIntervalMicroseconds });
    await this.send("Profiler.start");
  }

  async stop(): Promise<CpuProfile> {
    const result = (await this.send("Profiler.stop")) as { profile: CpuProfile };
    return result.profile;
  }

  close(): void {
    this.socket.close();
  }
}

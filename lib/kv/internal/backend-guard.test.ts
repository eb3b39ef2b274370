import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KvTimeoutError, withTimeout } from "./backend-guard";

// The echo server lives in another process, as Redis does: a server inside this process would
// stall along with the client and could not answer during the stall.
const ECHO_SERVER = `
const server = require("node:net").createServer((socket) => {
  socket.on("error", () => undefined);
  socket.on("data", (chunk) => socket.write(chunk));
});
server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));
`;

let echo: ChildProcess;
let port: number;

beforeAll(async () => {
  echo = spawn(process.execPath, ["-e", ECHO_SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  port = await new Promise<number>((resolve, reject) => {
    echo.once("error", reject);
    echo.stdout!.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
  });
});

afterAll(() => {
  echo.kill();
});

/** Sends one line to the loopback echo server and resolves with the reply. */
async function roundTrip(): Promise<{ reply: Promise<string>; close: () => void }> {
  const socket = connect(port, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const reply = new Promise<string>((resolve) => socket.once("data", (chunk) => resolve(chunk.toString())));
  socket.write("ping");
  return { reply, close: () => socket.destroy() };
}

function blockEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Spinning on purpose: the process stalls as it does under a long GC or a starved CPU.
  }
}

describe("withTimeout", () => {
  it("lets a reply that arrived during a stall win over a timer that expired during it", async () => {
    const { reply, close } = await roundTrip();
    try {
      const raced = withTimeout(reply, 50);
      blockEventLoop(300);
      await expect(raced).resolves.toBe("ping");
    } finally {
      close();
    }
  });

  it("rejects with a timeout error when nothing answers", async () => {
    const started = performance.now();
    await expect(withTimeout(new Promise<never>(() => undefined), 50)).rejects.toBeInstanceOf(KvTimeoutError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it("passes the operation's own failure through", async () => {
    await expect(withTimeout(Promise.reject(new Error("refused")), 1000)).rejects.toThrow("refused");
  });
});

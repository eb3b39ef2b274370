import { spawn } from "node:child_process";
import net from "node:net";

/**
 * What one message between two processes costs this machine: the bench's process and a child echo
 * small messages over loopback TCP one at a time, so that each message wakes a process that was
 * waiting. The app's work per event is a chain of such messages (load generator → server → Redis
 * and PostgreSQL → worker), and machines whose CPU looks alike differ most here: on a virtual
 * machine where waking another process is dear, the same code costs several times the CPU per event
 * at a moderate rate, where little is sent together (bench/README.md, 2026-12-07, AMD, evening).
 */
export interface RoundTripCost {
  roundTrips: number;
  /** Wall time of one round trip. */
  wallMicros: number;
  /** CPU of both processes per round trip (each sends one message and receives one). */
  cpuMicros: number;
}

// The child echoes every message back and, when the bench's process closes its end, prints its CPU
// time since the one-byte message that ends the warm-up.
const ECHO_CHILD = `
const net = require("node:net");
const server = net.createServer((socket) => {
  let start = process.cpuUsage();
  socket.setNoDelay(true);
  socket.on("data", (chunk) => {
    if (chunk.length === 1) start = process.cpuUsage();
    socket.write(chunk);
  });
  socket.on("end", () => {
    const used = process.cpuUsage(start);
    process.stdout.write(JSON.stringify({ cpuMicros: used.user + used.system }) + "\\n", () => process.exit(0));
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(JSON.stringify({ port: server.address().port }) + "\\n"));
`;

function readLine(stream: NodeJS.ReadableStream): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const end = text.indexOf("\n");
      if (end < 0) return;
      stream.off("data", onData);
      resolve(JSON.parse(text.slice(0, end)) as Record<string, number>);
    };
    stream.on("data", onData);
    stream.once("error", reject);
  });
}

export async function measureRoundTripCost(roundTrips = 3_000): Promise<RoundTripCost> {
  const child = spawn(process.execPath, ["-e", ECHO_CHILD], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const { port } = await readLine(child.stdout);
    const socket = net.connect(port!, "127.0.0.1");
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    const message = Buffer.alloc(64, 1);
    const echoed = () => new Promise<void>((resolve) => socket.once("data", () => resolve()));
    // Warm-up: the first messages pay for JIT compilation and the sockets' first allocations.
    for (let index = 0; index < 200; index++) {
      const answer = echoed();
      socket.write(message);
      await answer;
    }
    const warmedUp = echoed();
    socket.write(Buffer.alloc(1));
    await warmedUp;
    const childCpu = readLine(child.stdout);
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    for (let index = 0; index < roundTrips; index++) {
      const answer = echoed();
      socket.write(message);
      await answer;
    }
    const wallMicros = ((performance.now() - wallStart) * 1000) / roundTrips;
    const own = process.cpuUsage(cpuStart);
    socket.end();
    const { cpuMicros: childMicros } = await childCpu;
    return { roundTrips, wallMicros, cpuMicros: (own.user + own.system + childMicros!) / roundTrips };
  } finally {
    child.kill();
  }
}

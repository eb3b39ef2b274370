import { flushWhenSettling } from "@/lib/http/after-response";
import { processEndpointCallCounter } from "./endpoint-call-counter";
import { flushEndpointStats, startEndpointStatsFlusher } from "./flush-endpoint-stats";

const counter = processEndpointCallCounter();
let flusherStarted = false;
/*
 * Wall-clock time as performance.now() plus this offset: one clock read per count serves both the
 * duration and the minute. Taken again every 10 s, so a clock adjustment moves calls by seconds at most.
 */
let wallClockOffset = Date.now() - performance.now();

export interface AnsweredEndpointCall {
  projectId: string;
  endpointId: string;
  status: number;
  cacheHit: boolean;
  /** performance.now() when the request arrived. */
  startedAt: number;
}

/**
 * Counts one answered call of a custom endpoint for its analytics: in memory only (no I/O, no
 * round trip), written to the platform database by the flusher every 10 s and when the process
 * settles its after-response work on shutdown.
 */
export function countEndpointCall(call: AnsweredEndpointCall): void {
  const finishedAt = performance.now();
  counter.count(call.projectId, call.endpointId, call.status, call.cacheHit, finishedAt - call.startedAt, finishedAt + wallClockOffset);
  if (flusherStarted) return;
  flusherStarted = true;
  startEndpointStatsFlusher(() => {
    wallClockOffset = Date.now() - performance.now();
  });
  flushWhenSettling("endpoint stats flush", () => flushEndpointStats());
}

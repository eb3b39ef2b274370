/** The part of autocannon 8's programmatic API the benchmark uses (the package ships no types). */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before every request is sent; answers the request to send. */
    setupRequest?: (request: AutocannonRequest & { headers: Record<string, string> }, context: Record<string, unknown>) => AutocannonRequest;
  }

  export interface AutocannonOptions extends AutocannonRequest {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests per second across all connections (0 = as fast as possible). */
    overallRate?: number;
    timeout?: number;
    pipelining?: number;
    requests?: AutocannonRequest[];
    excludeErrorStats?: boolean;
  }

  export interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    statusCodeStats: Record<string, { count: number }>;
    latency: { average: number; p50: number; p99: number; max: number };
    requests: { average: number; total: number; sent: number };
  }

  export interface Instance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
  }

  function autocannon(options: AutocannonOptions): Instance;
  export default autocannon;
}

/**
 * The production server's `waitUntil`: work that runs after a response (execution logs, webhook
 * deliveries) is tracked so that shutdown waits for it instead of cutting it off.
 */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<unknown>>();

  track = (task: Promise<unknown>): void => {
    const tracked = task.catch((error: unknown) => console.error("[server] background task failed:", error instanceof Error ? error.message : error));
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  };

  get size(): number {
    return this.pending.size;
  }

  /** Waits for every tracked task, at most `timeoutMs`. */
  async drain(timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size > 0 && Date.now() < deadline) {
      await Promise.race([Promise.allSettled([...this.pending]), new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())))]);
    }
  }
}

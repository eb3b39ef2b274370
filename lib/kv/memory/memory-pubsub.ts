import { describeKvError, type ThrottledWarnings } from "@/lib/kv/internal/backend-guard";
import type { KvPubSub } from "@/lib/kv/kv";

type Handler = (message: string) => void;

/** In-process pub/sub for the single-instance embedded default. */
export class MemoryPubSub implements KvPubSub {
  private readonly handlers = new Map<string, Set<Handler>>();

  constructor(private readonly warnings: ThrottledWarnings) {}

  async publish(channel: string, message: string): Promise<void> {
    // Delivered on a later turn, as over a network, so a publisher is never re-entered.
    setImmediate(() => {
      for (const handler of [...(this.handlers.get(channel) ?? [])]) {
        try {
          handler(message);
        } catch (error) {
          this.warnings.warn("pub/sub", `a message handler threw (${describeKvError(error)})`);
        }
      }
    });
  }

  async subscribe(channel: string, handler: Handler): Promise<() => Promise<void>> {
    const handlers = this.handlers.get(channel) ?? new Set<Handler>();
    this.handlers.set(channel, handlers);
    // A wrapper per call, so subscribing one function twice gives two independent subscriptions.
    const subscription: Handler = (message) => handler(message);
    handlers.add(subscription);
    return async () => {
      handlers.delete(subscription);
      if (handlers.size === 0 && this.handlers.get(channel) === handlers) this.handlers.delete(channel);
    };
  }

  close(): void {
    this.handlers.clear();
  }
}

import type { Redis as IORedis } from "ioredis";
import { describeKvError, withTimeout, type BackendGuard } from "@/lib/kv/internal/backend-guard";
import type { KvPubSub } from "@/lib/kv/kv";
import type { SendRedisCommand } from "@/lib/kv/shared/redis-protocol-cache";

type Handler = (message: string) => void;

interface RedisPubSubOptions {
  /** Sends PUBLISH over the shared command connection. */
  send: SendRedisCommand;
  /** Opens the dedicated subscriber connection (a connection in subscribe mode can do nothing else). */
  openSubscriber: () => IORedis;
  channelPrefix: string;
  guard: BackendGuard;
}

/**
 * Redis pub/sub: PUBLISH over the command connection, one subscriber connection opened on the
 * first subscribe. Handlers are kept here, so every channel is subscribed again whenever the
 * subscriber connection becomes ready (after a restart or an outage), whether or not the first
 * SUBSCRIBE got through. Channels are `<prefix>ps:<channel>`.
 */
export class RedisPubSub implements KvPubSub {
  private readonly handlers = new Map<string, Set<Handler>>();
  /** Per channel, when its subscription was confirmed on the subscriber connection as it is now. */
  private readonly confirmedAt = new Map<string, number>();
  private subscriber: IORedis | undefined;

  constructor(private readonly options: RedisPubSubOptions) {}

  async publish(channel: string, message: string): Promise<void> {
    await this.options.guard.run(
      "pub/sub",
      async () => void (await this.options.send(["PUBLISH", this.fullChannel(channel), message])),
      () => undefined,
      "message dropped",
    );
  }

  async subscribe(channel: string, handler: Handler): Promise<() => Promise<void>> {
    const name = this.fullChannel(channel);
    const existing = this.handlers.get(name);
    const handlers = existing ?? new Set<Handler>();
    // A wrapper per call, so subscribing one function twice gives two independent subscriptions.
    const subscription: Handler = (message) => handler(message);
    handlers.add(subscription);
    if (!existing) {
      this.handlers.set(name, handlers);
      await this.sendSubscription(["subscribe", name]);
    }
    return async () => {
      handlers.delete(subscription);
      if (handlers.size === 0 && this.handlers.get(name) === handlers) {
        this.handlers.delete(name);
        await this.sendSubscription(["unsubscribe", name]);
      }
    };
  }

  listeningSince(channel: string): number | null {
    if (this.subscriber?.status !== "ready") return null;
    return this.confirmedAt.get(this.fullChannel(channel)) ?? null;
  }

  close(): void {
    this.handlers.clear();
    this.confirmedAt.clear();
    this.subscriber?.disconnect();
    this.subscriber = undefined;
  }

  private fullChannel(channel: string): string {
    return `${this.options.channelPrefix}ps:${channel}`;
  }

  private async sendSubscription([action, name]: ["subscribe" | "unsubscribe", string]): Promise<void> {
    const subscriber = this.ensureSubscriber();
    try {
      if (action === "unsubscribe") this.confirmedAt.delete(name);
      await withTimeout(action === "subscribe" ? subscriber.subscribe(name) : subscriber.unsubscribe(name), this.options.guard.timeoutMs);
      if (action === "subscribe" && this.handlers.has(name) && subscriber.status === "ready") this.confirmedAt.set(name, Date.now());
    } catch (error) {
      const retry = action === "subscribe" ? "it is sent again when the connection is ready" : "ignored";
      this.options.guard.warnings.warn("pub/sub", `${action} failed (${describeKvError(error)}); ${retry}`);
    }
  }

  private ensureSubscriber(): IORedis {
    if (this.subscriber) return this.subscriber;
    const subscriber = this.options.openSubscriber();
    subscriber.on("message", (name: string, message: string) => {
      for (const handler of this.handlers.get(name) ?? []) {
        try {
          handler(message);
        } catch (error) {
          this.options.guard.warnings.warn("pub/sub", `a message handler threw (${describeKvError(error)})`);
        }
      }
    });
    subscriber.on("ready", () => {
      const names = [...this.handlers.keys()];
      if (names.length === 0) return;
      subscriber.subscribe(...names).then(
        () => {
          const now = Date.now();
          for (const name of names) if (this.handlers.has(name) && subscriber.status === "ready") this.confirmedAt.set(name, now);
        },
        () => undefined,
      );
    });
    // Messages published while the connection is down are lost: nothing counts as heard until it is subscribed again.
    subscriber.on("close", () => this.confirmedAt.clear());
    subscriber.on("error", (error: unknown) => this.options.guard.warnings.warn("connection", describeKvError(error)));
    this.subscriber = subscriber;
    return subscriber;
  }
}

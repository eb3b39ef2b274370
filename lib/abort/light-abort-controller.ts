/**
 * An abort controller for the hot paths (every store operation's deadline, every I/O step's
 * signal, every automation run): its signal behaves as an AbortSignal for whoever listens to it
 * (`aborted`, `reason`, `throwIfAborted()`, "abort" listeners with `once`, `onabort`), and is a plain
 * subclass of EventTarget.
 *
 * Why not Node's own: Node 20 makes each AbortSignal as an EventTarget and then swaps its prototype,
 * and an object made that way survives young-generation collections: every signal (a few hundred
 * bytes) is copied and promoted to the old generation, to wait there for a full collection. Measured
 * on this machine (bench/README.md, "AbortSignals and garbage collection"): a loop of operations that
 * each make a signal and listen to it promoted 1.3 MB per scavenge against 5 KB with this one, and
 * ran six to seven times as many operations in the same time; in the automation worker, Node's
 * signals were half of all the bytes its scavenges promoted, and half of the length of its pauses.
 *
 * Hand `signal` only to code that listens to it (ours, the MongoDB driver, `node:events`'
 * addAbortListener). An API that insists on a real AbortSignal (fetch) gets one of its own that
 * listens to this one, as lib/outbound/safe-fetch.ts and lib/mail/send-within-time-limit.ts do.
 */
class LightAbortSignal extends EventTarget implements AbortSignal {
  #aborted = false;
  #reason: unknown = undefined;
  onabort: ((this: AbortSignal, event: Event) => unknown) | null = null;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  /** Called by the controller only. */
  markAborted(reason: unknown): boolean {
    if (this.#aborted) return false;
    this.#aborted = true;
    this.#reason = reason;
    return true;
  }
}

export class LightAbortController {
  readonly #signal = new LightAbortSignal();

  get signal(): AbortSignal {
    return this.#signal;
  }

  /** As AbortController.abort: the first call sets the reason and tells the listeners, later ones do nothing. */
  abort(reason: unknown = new DOMException("This operation was aborted", "AbortError")): void {
    const signal = this.#signal;
    if (!signal.markAborted(reason)) return;
    const event = new Event("abort");
    signal.dispatchEvent(event);
    signal.onabort?.call(signal, event);
  }
}

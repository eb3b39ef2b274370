import { addAbortListener } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { LightAbortController } from "./light-abort-controller";

describe("LightAbortController", () => {
  it("starts not aborted, and throwIfAborted does nothing", () => {
    const { signal } = new LightAbortController();
    expect(signal.aborted).toBe(false);
    expect(signal.reason).toBeUndefined();
    expect(() => signal.throwIfAborted()).not.toThrow();
  });

  it("aborts once with the reason given, telling each listener once", () => {
    const controller = new LightAbortController();
    const listener = vi.fn();
    const onceListener = vi.fn();
    const onabort = vi.fn();
    controller.signal.addEventListener("abort", listener);
    controller.signal.addEventListener("abort", onceListener, { once: true });
    controller.signal.onabort = onabort;
    const reason = new Error("budget used up");
    controller.abort(reason);
    controller.abort(new Error("later"));
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(reason);
    expect(() => controller.signal.throwIfAborted()).toThrow(reason);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(onceListener).toHaveBeenCalledTimes(1);
    expect(onabort).toHaveBeenCalledTimes(1);
    const event = listener.mock.calls[0]![0] as Event;
    expect(event.type).toBe("abort");
    expect(event.target).toBe(controller.signal);
  });

  it("aborts with an AbortError DOMException when no reason is given, as AbortController does", () => {
    const light = new LightAbortController();
    const native = new AbortController();
    light.abort();
    native.abort();
    const reason = light.signal.reason as DOMException;
    expect(reason).toBeInstanceOf(DOMException);
    expect(reason.name).toBe((native.signal.reason as DOMException).name);
    expect(reason.message).toBe((native.signal.reason as DOMException).message);
  });

  it("does not call a listener that was removed", () => {
    const controller = new LightAbortController();
    const listener = vi.fn();
    controller.signal.addEventListener("abort", listener, { once: true });
    controller.signal.removeEventListener("abort", listener);
    controller.abort();
    expect(listener).not.toHaveBeenCalled();
  });

  it("works with Node's own helpers that take a signal", async () => {
    const controller = new LightAbortController();
    const told = vi.fn();
    addAbortListener(controller.signal, told);
    const waiting = sleep(10_000, undefined, { signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    expect(told).toHaveBeenCalledTimes(1);
  });
});

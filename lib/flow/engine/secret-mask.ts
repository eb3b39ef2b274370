import { log } from "@/lib/log";
import type { FlowServices } from "./flow-services";

/**
 * The secret values one run has used, and how they are hidden again: every place a value could come
 * back (a step's output, for example an upstream echoing the Authorization header; an error message
 * quoting the URL; a webhook failure) is masked with `[secret:NAME]` before it is stored in the
 * context, answered or logged. The value's URL-encoded, base64 and JSON-escaped forms are masked too.
 */
export class SecretMask {
  private readonly forms = new Map<string, string>();
  private ordered: Array<[string, string]> | null = null;

  get isEmpty(): boolean {
    return this.forms.size === 0;
  }

  add(name: string, value: string): void {
    if (value === "") return;
    const replacement = `[secret:${name}]`;
    const jsonEscaped = JSON.stringify(value).slice(1, -1);
    for (const form of [value, encodeURIComponent(value), Buffer.from(value, "utf8").toString("base64"), jsonEscaped]) {
      if (!this.forms.has(form)) this.forms.set(form, replacement);
    }
    this.ordered = null;
  }

  text(text: string): string {
    if (this.forms.size === 0 || text === "") return text;
    // Longest first, so a secret that contains another is masked whole.
    this.ordered ??= [...this.forms].sort(([a], [b]) => b.length - a.length);
    let out = text;
    for (const [form, replacement] of this.ordered) if (out.includes(form)) out = out.split(form).join(replacement);
    return out;
  }

  /** What the server log may keep of an unexpected error once secrets were used: masked name, message and stack. */
  error(error: unknown): { name: string; message: string; stack?: string } {
    if (!(error instanceof Error)) return { name: "NonError", message: this.text(String(error)) };
    return { name: error.name, message: this.text(error.message), stack: error.stack === undefined ? undefined : this.text(error.stack) };
  }

  /** A copy of a JSON value with every string (keys too) masked; numbers that spell a secret become text. */
  value(value: unknown): unknown {
    if (this.forms.size === 0) return value;
    if (typeof value === "string") return this.text(value);
    if (typeof value === "number" || typeof value === "bigint") {
      const text = String(value);
      const masked = this.text(text);
      return masked === text ? value : masked;
    }
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const maskedKey = this.text(key);
        const maskedItem = this.value(item);
        if (maskedKey === "__proto__") Object.defineProperty(out, maskedKey, { value: maskedItem, enumerable: true, writable: true, configurable: true });
        else out[maskedKey] = maskedItem;
      }
      return out;
    }
    return value;
  }
}

/**
 * The services a run's steps see: the same, except that every secret value handed out is recorded
 * in the run's mask, and background failures (webhook deliveries) are reported masked.
 */
export function servicesWithSecretMask(services: FlowServices, mask: SecretMask): FlowServices {
  const secrets = services.secrets;
  if (secrets === undefined) return services;
  const report = services.onBackgroundFailure;
  return {
    ...services,
    secrets: {
      async resolve(names, options) {
        const values = await secrets.resolve(names, options);
        for (const [name, value] of Object.entries(values)) mask.add(name, value);
        return values;
      },
    },
    onBackgroundFailure(failure) {
      const masked = { ...failure, error: mask.text(failure.error) };
      if (report) report(masked);
      else log.warn("webhook delivery failed", { ...masked });
    },
  };
}

"use client";

import { useState } from "react";
import { Button, type ButtonProps } from "./button";

/** Copies `value` to the clipboard; says "Copied" for a moment so the click is visibly confirmed. */
export function CopyButton({ value, label = "Copy", ...props }: Omit<ButtonProps, "onClick"> & { value: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2000);
  }
  return (
    <Button variant="secondary" size="sm" onClick={copy} {...props}>
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Select and copy" : label}</span>
    </Button>
  );
}

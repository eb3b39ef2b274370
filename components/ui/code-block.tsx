import type { ReactNode } from "react";
import { cn } from "./cn";

/**
 * A scrollable block of code or data. It is focusable and named, so keyboard users can scroll it
 * and screen readers say what it holds.
 */
export function CodeBlock({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <pre tabIndex={0} aria-label={label} className={cn("overflow-auto font-mono text-xs leading-5 focus-visible:outline-2 focus-visible:outline-indigo-600", className)}>
      {children}
    </pre>
  );
}

"use client";

import { useOptimistic, useState, useTransition } from "react";
import type { ActionResult } from "@/lib/http/action-result";
import { cn } from "@/components/ui/cn";

/** The enable/disable switch of an endpoint in the list; shows the new state at once and rolls back with a message if saving fails. */
export function EnabledSwitch({ enabled, label, action }: { enabled: boolean; label: string; action: (enabled: boolean) => Promise<ActionResult> }) {
  const [optimistic, setOptimistic] = useOptimistic(enabled);
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        role="switch"
        aria-checked={optimistic}
        aria-label={label}
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            setError(undefined);
            setOptimistic(!optimistic);
            const result = await action(!optimistic);
            if (!result.ok) setError(result.error);
          })
        }
        className={cn(
          "relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60",
          optimistic ? "bg-emerald-500" : "bg-slate-300",
        )}
      >
        <span className={cn("inline-block size-4 rounded-full bg-white shadow transition-transform", optimistic ? "translate-x-4.5" : "translate-x-0.5")} />
      </button>
      <span className={cn("w-14 text-xs", optimistic ? "text-emerald-700" : "text-slate-500")}>{optimistic ? "Enabled" : "Disabled"}</span>
      {error && (
        <span role="alert" className="text-xs text-rose-700">
          {error}
        </span>
      )}
    </span>
  );
}

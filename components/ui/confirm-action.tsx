"use client";

import { useState, useTransition, type ReactNode } from "react";
import type { ActionResult } from "@/lib/http/action-result";
import { Button } from "./button";
import { Spinner } from "./spinner";

/**
 * A destructive action in two clicks: the first shows what will happen, the second does it. The
 * action answers an ActionResult (its failure's message is shown), or nothing.
 */
export function ConfirmAction({
  label,
  accessibleLabel,
  confirmLabel,
  question,
  action,
}: {
  label: string;
  /** A fuller name for screen readers when the visible label repeats down a list ("Revoke key deploy"). */
  accessibleLabel?: string;
  confirmLabel: string;
  question: ReactNode;
  action: () => Promise<ActionResult<unknown> | void>;
}) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  if (!asking) {
    return (
      <Button variant="secondary" size="sm" aria-label={accessibleLabel} onClick={() => setAsking(true)}>
        {label}
      </Button>
    );
  }
  return (
    <div role="group" aria-label={accessibleLabel ?? label} className="flex flex-wrap items-center justify-end gap-2">
      <span className="text-sm text-slate-700">{question}</span>
      <Button variant="ghost" size="sm" onClick={() => (setAsking(false), setError(undefined))} disabled={pending}>
        Cancel
      </Button>
      <Button
        variant="danger"
        size="sm"
        busy={pending}
        onClick={() =>
          startTransition(async () => {
            const result = await action();
            if (result && !result.ok) setError(result.error);
            else setAsking(false);
          })
        }
      >
        {pending && <Spinner />}
        {confirmLabel}
      </Button>
      {error && (
        <p role="alert" className="w-full text-right text-sm text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
}

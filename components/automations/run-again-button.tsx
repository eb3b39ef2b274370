"use client";

import { AppLink as Link } from "@/components/ui/app-link";
import { useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import type { ActionResult } from "@/lib/http/action-result";

/**
 * Queues a failed run's trigger payload again. When the log did not keep the payload whole, the
 * button is disabled and says why next to it (not only in a tooltip).
 */
export function RunAgainButton({
  projectId,
  label,
  disabledReason,
  action,
}: {
  projectId: string;
  label: string;
  disabledReason: string | null;
  action: () => Promise<ActionResult<{ executionId: string }>>;
}) {
  const reasonId = useId();
  const [queued, setQueued] = useState<string>();
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  return (
    <div className="inline-flex max-w-xs flex-col items-end gap-1 whitespace-normal">
      <Button
        variant="secondary"
        size="sm"
        aria-label={`Run again: ${label}`}
        aria-describedby={disabledReason ? reasonId : undefined}
        disabled={pending || disabledReason !== null}
        onClick={() =>
          startTransition(async () => {
            setError(undefined);
            const result = await action();
            if (result.ok) setQueued(result.data.executionId);
            else setError(result.error);
          })
        }
      >
        {pending && <Spinner />}
        Run again
      </Button>
      {disabledReason && (
        <span id={reasonId} className="text-right text-xs text-slate-500">
          {disabledReason}
        </span>
      )}
      {queued && (
        <span role="status" className="text-xs text-emerald-800">
          Queued:{" "}
          <Link href={`/projects/${projectId}/executions/${queued}`} className="font-mono underline underline-offset-2">
            {queued}
          </Link>
        </span>
      )}
      {error && (
        <span role="alert" className="text-right text-xs text-rose-700">
          {error}
        </span>
      )}
    </div>
  );
}

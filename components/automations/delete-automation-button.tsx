"use client";

import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/http/action-result";
import { ConfirmAction } from "@/components/ui/confirm-action";

/** Deletes the automation after a second click, then returns to the list. */
export function DeleteAutomationButton({ projectId, name, action }: { projectId: string; name: string; action: () => Promise<ActionResult> }) {
  const router = useRouter();
  return (
    <ConfirmAction
      label="Delete"
      accessibleLabel={`Delete automation ${name}`}
      confirmLabel="Delete automation"
      question="Its trigger stops at once; logged runs and form submissions stay in your database."
      action={async () => {
        const result = await action();
        if (!result.ok) return result;
        router.push(`/projects/${projectId}/automations`);
        router.refresh();
      }}
    />
  );
}

"use client";

import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/http/action-result";
import { ConfirmAction } from "@/components/ui/confirm-action";

/** Deletes the endpoint after a second click, then returns to the list. */
export function DeleteEndpointButton({ projectId, label, action }: { projectId: string; label: string; action: () => Promise<ActionResult> }) {
  const router = useRouter();
  return (
    <ConfirmAction
      label="Delete"
      accessibleLabel={`Delete endpoint ${label}`}
      confirmLabel="Delete endpoint"
      question="Callers will get 404 at once."
      action={async () => {
        const result = await action();
        if (!result.ok) return result;
        router.push(`/projects/${projectId}/endpoints`);
        router.refresh();
      }}
    />
  );
}

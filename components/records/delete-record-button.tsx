"use client";

import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/http/action-result";
import { ConfirmAction } from "@/components/ui/confirm-action";

export function DeleteRecordButton({ listHref, action }: { listHref: string; action: () => Promise<ActionResult> }) {
  const router = useRouter();
  return (
    <ConfirmAction
      label="Delete"
      accessibleLabel="Delete record"
      confirmLabel="Delete record"
      question="Records that point at it keep its id."
      action={async () => {
        const result = await action();
        if (!result.ok) return result;
        router.push(listHref);
        router.refresh();
      }}
    />
  );
}

"use client";

import { useRouter } from "next/navigation";
import { ConfirmAction } from "@/components/ui/confirm-action";

export function DeleteRecordButton({ listHref, action }: { listHref: string; action: () => Promise<{ error?: string }> }) {
  const router = useRouter();
  return (
    <ConfirmAction
      label="Delete"
      accessibleLabel="Delete record"
      confirmLabel="Delete record"
      question="Records that point at it keep its id."
      action={async () => {
        const result = await action();
        if (result.error) return result;
        router.push(listHref);
        router.refresh();
      }}
    />
  );
}

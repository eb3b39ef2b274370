"use client";

import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import type { ActionResult } from "@/lib/http/action-result";
import { ConfirmAction } from "./confirm-action";

/** Deletes a thing after a second click ("Delete endpoint"), then goes to `listHref`. */
export function DeleteAndLeaveButton({
  noun,
  name,
  question,
  listHref,
  action,
}: {
  /** What is deleted, in lower case: "endpoint". */
  noun: string;
  /** Its name, for screen readers ("Delete endpoint GET tickets"). */
  name: string;
  question: ReactNode;
  listHref: string;
  action: () => Promise<ActionResult>;
}) {
  const router = useRouter();
  return (
    <ConfirmAction
      label="Delete"
      accessibleLabel={`Delete ${noun} ${name}`}
      confirmLabel={`Delete ${noun}`}
      question={question}
      action={async () => {
        const result = await action();
        if (!result.ok) return result;
        router.push(listHref);
        router.refresh();
      }}
    />
  );
}

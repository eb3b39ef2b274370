import type { ActionResult } from "@/lib/http/action-result";
import { DeleteAndLeaveButton } from "@/components/ui/delete-and-leave-button";

/** Deletes the automation after a second click, then returns to the list. */
export function DeleteAutomationButton({ projectId, name, action }: { projectId: string; name: string; action: () => Promise<ActionResult> }) {
  return (
    <DeleteAndLeaveButton
      noun="automation"
      name={name}
      question="Its trigger stops at once; logged runs and form submissions stay in your database."
      listHref={`/projects/${projectId}/automations`}
      action={action}
    />
  );
}

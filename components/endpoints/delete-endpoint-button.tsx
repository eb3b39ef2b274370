import type { ActionResult } from "@/lib/http/action-result";
import { DeleteAndLeaveButton } from "@/components/ui/delete-and-leave-button";

/** Deletes the endpoint after a second click, then returns to the list. */
export function DeleteEndpointButton({ projectId, label, action }: { projectId: string; label: string; action: () => Promise<ActionResult> }) {
  return <DeleteAndLeaveButton noun="endpoint" name={label} question="Callers will get 404 at once." listHref={`/projects/${projectId}/endpoints`} action={action} />;
}

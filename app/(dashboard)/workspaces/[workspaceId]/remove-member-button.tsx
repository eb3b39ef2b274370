"use client";

import { ConfirmAction } from "@/components/ui/confirm-action";
import { removeMemberAction } from "./actions";

export function RemoveMemberButton({ workspaceId, userId, email, isSelf }: { workspaceId: string; userId: string; email: string; isSelf: boolean }) {
  return (
    <ConfirmAction
      label={isSelf ? "Leave" : "Remove"}
      accessibleLabel={isSelf ? "Leave this workspace" : `Remove ${email}`}
      confirmLabel={isSelf ? "Leave workspace" : "Remove member"}
      question={isSelf ? "Leave this workspace?" : `Remove ${email}?`}
      action={() => removeMemberAction(workspaceId, userId)}
    />
  );
}

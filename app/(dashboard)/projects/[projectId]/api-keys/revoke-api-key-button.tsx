"use client";

import { ConfirmAction } from "@/components/ui/confirm-action";
import { revokeApiKeyAction } from "../actions";

export function RevokeApiKeyButton({ projectId, keyId, name }: { projectId: string; keyId: string; name: string }) {
  return (
    <ConfirmAction
      label="Revoke"
      accessibleLabel={`Revoke API key ${name}`}
      confirmLabel="Revoke key"
      question="Requests with this key will fail at once."
      action={() => revokeApiKeyAction(projectId, keyId)}
    />
  );
}

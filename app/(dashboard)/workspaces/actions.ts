"use server";

import { redirect } from "next/navigation";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import type { FormState } from "@/lib/http/action-result";
import { userAction } from "@/lib/http/user-action";

function workspaceValues(_previous: FormState, formData: FormData) {
  return { name: String(formData.get("name") ?? "") };
}

export const createWorkspaceAction = userAction(
  async ({ userId }, previous: FormState, formData: FormData) => {
    const workspace = await createWorkspace({ userId, name: workspaceValues(previous, formData).name });
    redirect(`/workspaces/${workspace.id}`);
  },
  { name: "create-workspace", fields: ["name"], values: workspaceValues },
);

"use server";

import { redirect } from "next/navigation";
import { getCurrentUserId } from "@/lib/auth/current-user";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import type { FormState } from "@/components/forms/form-state";
import { toFormState } from "@/components/forms/to-form-state";

export async function createWorkspaceAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const userId = await getCurrentUserId();
  const name = String(formData.get("name") ?? "");
  let workspaceId: string;
  try {
    workspaceId = (await createWorkspace({ userId, name })).id;
  } catch (error) {
    return toFormState(error, { fields: ["name"], values: { name }, action: "create-workspace" });
  }
  redirect(`/workspaces/${workspaceId}`);
}

"use server";

import { redirect } from "next/navigation";
import { getCurrentUserId } from "@/lib/auth/current-user";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import type { FormState } from "@/lib/http/action-result";
import { toActionFailure } from "@/lib/http/action-failure";

export async function createWorkspaceAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const userId = await getCurrentUserId();
  const name = String(formData.get("name") ?? "");
  let workspaceId: string;
  try {
    workspaceId = (await createWorkspace({ userId, name })).id;
  } catch (error) {
    return toActionFailure(error, { fields: ["name"], values: { name }, action: "create-workspace" });
  }
  redirect(`/workspaces/${workspaceId}`);
}

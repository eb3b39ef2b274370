import type { ProjectAction } from "@/lib/auth/permissions";

/** Templates are part of flows: whoever may read or change endpoints or automations may read or change them. */
export const EMAIL_TEMPLATE_READ: ProjectAction[] = ["endpoints.read", "automations.read"];
export const EMAIL_TEMPLATE_WRITE: ProjectAction[] = ["endpoints.create", "endpoints.update", "automations.write"];

"use server";

import { signUpUser } from "@/lib/accounts/sign-up-user";
import { getActionClientIp } from "@/lib/auth/get-action-client-ip";
import { succeed, type FormState } from "@/lib/http/action-result";
import { toActionFailure } from "@/lib/http/action-failure";

/** Creates the account; the form then signs in through next-auth with the same credentials. */
export async function signUpAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = { name: String(formData.get("name") ?? ""), email: String(formData.get("email") ?? "") };
  try {
    const input = { name: values.name || undefined, email: values.email, password: String(formData.get("password") ?? "") };
    await signUpUser({ input, clientIp: await getActionClientIp() });
    return succeed(undefined, { values });
  } catch (error) {
    return toActionFailure(error, { fields: ["name", "email", "password"], values, action: "sign-up" });
  }
}

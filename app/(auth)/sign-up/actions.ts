"use server";

import { signUpUser } from "@/lib/accounts/sign-up-user";
import { getActionClientIp } from "@/lib/auth/get-action-client-ip";
import { succeed, type FormState } from "@/lib/http/action-result";
import { publicAction } from "@/lib/http/public-action";

function signUpValues(_previous: FormState, formData: FormData) {
  return { name: String(formData.get("name") ?? ""), email: String(formData.get("email") ?? "") };
}

/** Creates the account; the form then signs in through next-auth with the same credentials. */
export const signUpAction = publicAction(
  async (previous: FormState, formData: FormData) => {
    const values = signUpValues(previous, formData);
    const input = { name: values.name || undefined, email: values.email, password: String(formData.get("password") ?? "") };
    await signUpUser({ input, clientIp: await getActionClientIp() });
    return succeed(undefined, { values });
  },
  { name: "sign-up", fields: ["name", "email", "password"], values: signUpValues },
);

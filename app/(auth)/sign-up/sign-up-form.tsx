"use client";

import { useActionState } from "react";
import { signIn } from "next-auth/react";
import { TextField } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import { EMPTY_FORM_STATE, type FormState } from "@/lib/http/action-result";
import { signUpAction } from "./actions";
import { GithubButton } from "../github-button";

export function SignUpForm({ callbackUrl, githubEnabled, minPasswordLength }: { callbackUrl: string; githubEnabled: boolean; minPasswordLength: number }) {
  const [state, formAction, pending] = useActionState(async (previous: FormState, formData: FormData): Promise<FormState> => {
    const created = await signUpAction(previous, formData);
    if (!created.ok) return created;
    const result = await signIn("credentials", {
      email: String(formData.get("email") ?? ""),
      password: String(formData.get("password") ?? ""),
      redirect: false,
    });
    if (!result || result.error) {
      return { ok: false, error: "Your account was created, but signing in failed. Please sign in with your new password.", issues: [], values: created.values };
    }
    window.location.assign(callbackUrl);
    // Keeps the button busy until the browser has left the page.
    await new Promise(() => {});
    return created;
  }, EMPTY_FORM_STATE);

  return (
    <div className="space-y-5">
      {githubEnabled && (
        <>
          <GithubButton callbackUrl={callbackUrl} />
          <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500">
            <span className="h-px flex-1 bg-slate-200" />
            or
            <span className="h-px flex-1 bg-slate-200" />
          </div>
        </>
      )}
      <form action={formAction} className="space-y-4">
        <FormError message={state.error} issues={state.otherIssues} />
        <TextField
          id="name"
          name="name"
          label="Name"
          hint="Optional. Shown to your teammates."
          autoComplete="name"
          defaultValue={state.values?.name}
          error={state.fieldErrors?.name}
        />
        <TextField id="email" name="email" type="email" label="Email" autoComplete="email" required defaultValue={state.values?.email} error={state.fieldErrors?.email} />
        <TextField
          id="password"
          name="password"
          type="password"
          label="Password"
          autoComplete="new-password"
          required
          minLength={minPasswordLength}
          hint={`At least ${minPasswordLength} characters.`}
          error={state.fieldErrors?.password}
        />
        <Button type="submit" className="w-full" busy={pending}>
          {pending && <Spinner />}
          Create account
        </Button>
      </form>
    </div>
  );
}

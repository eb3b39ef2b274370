"use client";

import { useState, type FormEvent } from "react";
import { signIn } from "next-auth/react";
import { TextField } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import { GithubButton } from "../github-button";

const OAUTH_ERRORS: Record<string, string> = {
  OAuthSignin: "Could not start the GitHub sign-in. Please try again.",
  OAuthCallback: "GitHub sign-in did not complete. Please try again.",
  OAuthAccountNotLinked: "This email is already used by another sign-in method.",
  AccessDenied: "Access was denied.",
  CredentialsSignin: "The email or password is incorrect.",
};

// The server's rate-limit refusal (lib/auth/dashboard-auth-rate-limits.ts), shown as it is written.
const TOO_MANY_ATTEMPTS = /^Too many sign-in attempts, try again in \d+ minutes?$/;

function signInErrorMessage(error: string | null | undefined): string {
  if (!error || error === "CredentialsSignin") return OAUTH_ERRORS.CredentialsSignin!;
  if (TOO_MANY_ATTEMPTS.test(error)) return `${error}.`;
  return "Sign-in failed. Please try again.";
}

export function SignInForm({ callbackUrl, githubEnabled, oauthError }: { callbackUrl: string; githubEnabled: boolean; oauthError?: string }) {
  const [error, setError] = useState<string | undefined>(oauthError ? (OAUTH_ERRORS[oauthError] ?? "Sign-in failed. Please try again.") : undefined);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    try {
      const result = await signIn("credentials", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        redirect: false,
      });
      if (!result || result.error) {
        setError(signInErrorMessage(result?.error));
        setPending(false);
        return;
      }
      // A full navigation, so that every server component renders with the new session cookie.
      window.location.assign(callbackUrl);
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
      setPending(false);
    }
  }

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
      <form onSubmit={onSubmit} className="space-y-4">
        <FormError message={error} />
        <TextField id="email" name="email" type="email" label="Email" autoComplete="email" required autoFocus />
        <TextField id="password" name="password" type="password" label="Password" autoComplete="current-password" required />
        <Button type="submit" className="w-full" busy={pending}>
          {pending && <Spinner />}
          Sign in
        </Button>
      </form>
    </div>
  );
}

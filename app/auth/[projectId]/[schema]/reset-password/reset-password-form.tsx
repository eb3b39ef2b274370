"use client";

import { useState, type FormEvent } from "react";
import { postEndUserAuth } from "../../../end-user-request";

const MIN_LENGTH = 8;

/** A new password twice; posted with the link's token to the auth schema's reset-password route. */
export function ResetPasswordForm({ projectId, schema, token }: { projectId: string; schema: string; token: string }) {
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [error, setError] = useState<string>();
  const [passwordError, setPasswordError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);

  if (!token) {
    return (
      <div role="alert">
        <h1 className="text-lg font-semibold">This link is incomplete</h1>
        <p className="mt-2 text-sm text-neutral-600">The address has no reset code. Open the link from the email again, or ask the site for a new one.</p>
      </div>
    );
  }
  if (done) {
    return (
      <div role="status">
        <span aria-hidden="true" className="grid size-9 place-items-center rounded-full bg-green-100 text-base font-bold text-green-800">
          ✓
        </span>
        <h1 className="mt-4 text-lg font-semibold">Your password has been changed</h1>
        <p className="mt-2 text-sm text-neutral-600">You can sign in with your new password now. Sessions signed in with the old one have ended.</p>
      </div>
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The button stays focusable while the request runs; a second press sends nothing.
    if (pending) return;
    setError(undefined);
    setPasswordError(undefined);
    if (password.length < MIN_LENGTH) return setPasswordError(`Use at least ${MIN_LENGTH} characters.`);
    if (password !== repeat) return setError("The two passwords are not the same.");
    setPending(true);
    const answer = await postEndUserAuth(projectId, schema, "reset-password", { token, password });
    setPending(false);
    if (answer.ok) return setDone(true);
    const issue = answer.issues.find((candidate) => candidate.path === "password");
    if (issue) setPasswordError(`The password ${issue.message}.`);
    else setError(answer.message);
  }

  const input = "mt-1 block w-full rounded-md border border-neutral-300 px-3 py-2 text-sm focus:border-neutral-500 focus:ring-2 focus:ring-neutral-300 focus:outline-none";
  return (
    <form onSubmit={submit} noValidate>
      <h1 className="text-lg font-semibold">Choose a new password</h1>
      <p className="mt-1 text-sm text-neutral-600">At least {MIN_LENGTH} characters.</p>
      {error && (
        <p role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      <div className="mt-4">
        <label htmlFor="new-password" className="block text-sm font-medium">
          New password
        </label>
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={passwordError ? "new-password-error" : undefined}
          className={input}
        />
        {passwordError && (
          <p id="new-password-error" className="mt-1 text-sm text-red-700">
            {passwordError}
          </p>
        )}
      </div>
      <div className="mt-4">
        <label htmlFor="repeat-password" className="block text-sm font-medium">
          Repeat the new password
        </label>
        <input id="repeat-password" type="password" autoComplete="new-password" value={repeat} onChange={(event) => setRepeat(event.target.value)} className={input} />
      </div>
      <button
        type="submit"
        aria-disabled={pending || undefined}
        aria-busy={pending || undefined}
        className="mt-6 w-full rounded-md bg-neutral-900 px-4 py-2 text-sm font-medium text-white hover:bg-neutral-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-900 aria-disabled:opacity-60"
      >
        {pending ? "Saving…" : "Save new password"}
      </button>
    </form>
  );
}

"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { postEndUserAuth, type EndUserAnswer } from "../../../end-user-request";

/** Posts the link's token once, on arrival, and says whether the address is now confirmed. */
export function VerifyEmail({ projectId, schema, token }: { projectId: string; schema: string; token: string }) {
  const [answer, setAnswer] = useState<EndUserAnswer | null>(null);
  const sent = useRef(false);

  useEffect(() => {
    // The token is single-use: never post it twice (React runs effects twice in development).
    if (!token || sent.current) return;
    sent.current = true;
    void postEndUserAuth(projectId, schema, "verify-email", { token }).then(setAnswer);
  }, [projectId, schema, token]);

  if (!token) {
    return (
      <Message title="This link is incomplete">The address has no confirmation code. Open the link from the email again, or copy the whole address into your browser.</Message>
    );
  }
  if (answer === null) {
    return (
      <div role="status" aria-live="polite">
        <h1 className="text-lg font-semibold">Confirming your email address…</h1>
        <p className="mt-2 text-sm text-neutral-600">This takes a moment.</p>
      </div>
    );
  }
  if (answer.ok) {
    return (
      <Message title="Your email address is confirmed" tone="success">
        Thank you. You can close this page and continue on the site.
      </Message>
    );
  }
  return (
    <Message title="Your email address could not be confirmed" tone="error">
      {answer.message} You can ask the site for a new confirmation email.
    </Message>
  );
}

function Message({ title, children, tone = "neutral" }: { title: string; children: ReactNode; tone?: "neutral" | "success" | "error" }) {
  const mark = tone === "success" ? "✓" : tone === "error" ? "!" : "?";
  const markClass = tone === "success" ? "bg-green-100 text-green-800" : tone === "error" ? "bg-red-100 text-red-800" : "bg-neutral-100 text-neutral-700";
  return (
    <div role={tone === "error" ? "alert" : "status"}>
      <span aria-hidden="true" className={`grid size-9 place-items-center rounded-full text-base font-bold ${markClass}`}>
        {mark}
      </span>
      <h1 className="mt-4 text-lg font-semibold">{title}</h1>
      <p className="mt-2 text-sm text-neutral-600">{children}</p>
    </div>
  );
}

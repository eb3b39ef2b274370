import type { Metadata } from "next";
import { AppLink as Link } from "@/components/ui/app-link";
import { Fragment } from "react";
import { getCurrentUser } from "@/lib/auth/current-user";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { formatDateTime } from "@/components/ui/format-date";
import { cn } from "@/components/ui/cn";
import { listVisibleMail } from "./list-visible-mail";

export const metadata: Metadata = { title: "Mailbox" };

export default async function MailboxPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await getCurrentUser({ returnTo: "/mailbox" });
  const { id } = await searchParams;
  const messages = await listVisibleMail(user);
  const selected = messages.find((message) => message.id === id) ?? messages[0];

  return (
    <>
      <PageHeader
        title="Mailbox"
        description="Mail that Flowpoint kept instead of sending, because no mail server is set up: invitations addressed to you and the mail of your projects."
      />
      {messages.length === 0 ? (
        <Card>
          <CardBody>
            <EmptyState title="No mail yet" description="Invitations sent to you and mail from your projects without a mail server appear here." />
          </CardBody>
        </Card>
      ) : (
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-[22rem_minmax(0,1fr)]">
          <Card className="h-fit overflow-hidden">
            <ul aria-label="Messages" className="divide-y divide-slate-100">
              {messages.map((message) => (
                <li key={message.id}>
                  <Link
                    href={`/mailbox?id=${encodeURIComponent(message.id)}`}
                    aria-current={message.id === selected?.id ? "true" : undefined}
                    className={cn("block px-4 py-3 hover:bg-slate-50", message.id === selected?.id && "bg-indigo-50/70 hover:bg-indigo-50")}
                  >
                    <p className="truncate text-sm font-medium text-slate-900">{message.subject}</p>
                    <p className="mt-0.5 truncate text-xs text-slate-600">To {message.to.join(", ")}</p>
                    <div className="mt-1 flex items-center justify-between gap-2">
                      <span className="truncate text-xs text-slate-600">{formatDateTime(message.createdAt)}</span>
                      <Badge tone={message.projectId ? "indigo" : "neutral"}>{message.projectName ?? (message.projectId ? "Project" : "Flowpoint")}</Badge>
                    </div>
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
          {selected && (
            <Card aria-label="Message">
              <div className="border-b border-slate-100 px-5 py-4">
                <h2 className="text-lg font-semibold text-slate-900">{selected.subject}</h2>
                <dl className="mt-2 grid grid-cols-[4rem_1fr] gap-y-1 text-sm">
                  <dt className="text-slate-500">From</dt>
                  <dd className="truncate text-slate-700">{selected.from}</dd>
                  <dt className="text-slate-500">To</dt>
                  <dd className="truncate text-slate-700">{selected.to.join(", ")}</dd>
                  <dt className="text-slate-500">Date</dt>
                  <dd className="text-slate-700">{formatDateTime(selected.createdAt)}</dd>
                </dl>
              </div>
              <CardBody>
                {selected.text ? (
                  <div className="text-sm leading-relaxed whitespace-pre-wrap text-slate-800">
                    <LinkifiedText text={selected.text} />
                  </div>
                ) : selected.html ? (
                  // No scripts, no same-origin access: mail HTML is untrusted.
                  <iframe title="Message body" sandbox="allow-popups" srcDoc={selected.html} className="h-[28rem] w-full rounded-md border border-slate-200 bg-white" />
                ) : (
                  <p className="text-sm text-slate-500">This message has no body.</p>
                )}
              </CardBody>
            </Card>
          )}
        </div>
      )}
    </>
  );
}

/** Plain text with its http(s) links made clickable; everything else stays text (React escapes it). */
function LinkifiedText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s<>"]+)/g);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="break-all text-indigo-600 underline hover:text-indigo-500">
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

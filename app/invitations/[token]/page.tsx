import type { Metadata } from "next";
import Link from "next/link";
import { getCurrentUserOrNull } from "@/lib/auth/current-user";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { Logo } from "@/components/dashboard/logo";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { AcceptInvitationForm } from "./accept-invitation-form";

export const metadata: Metadata = { title: "Invitation" };

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const user = await getCurrentUserOrNull();
  const here = `/invitations/${encodeURIComponent(token)}`;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-slate-50 to-indigo-50/60 px-4 py-12">
      <Link href="/" className="mb-8" aria-label="Flowpoint home">
        <Logo />
      </Link>
      <Card className="w-full max-w-sm">
        <CardBody className="space-y-5 px-6 py-6">
          <div>
            <h1 className="text-xl font-semibold tracking-tight">Join a workspace</h1>
            <p className="mt-1 text-sm text-slate-500">You have been invited to a workspace on Flowpoint. Accept with the email address the invitation was sent to.</p>
          </div>
          {user ? (
            <>
              <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700">
                Signed in as <span className="font-medium">{user.email}</span>
              </p>
              <AcceptInvitationForm token={token} />
              <div className="flex items-center justify-between text-sm text-slate-500">
                <span>Not the invited address?</span>
                <SignOutButton callbackUrl={`/sign-in?callbackUrl=${encodeURIComponent(here)}`} />
              </div>
            </>
          ) : (
            <div className="space-y-2">
              <ButtonLink href={`/sign-up?callbackUrl=${encodeURIComponent(here)}`} className="w-full">
                Create an account to accept
              </ButtonLink>
              <ButtonLink href={`/sign-in?callbackUrl=${encodeURIComponent(here)}`} variant="secondary" className="w-full">
                I already have an account
              </ButtonLink>
            </div>
          )}
        </CardBody>
      </Card>
    </main>
  );
}

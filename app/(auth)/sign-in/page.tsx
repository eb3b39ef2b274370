import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getConfig } from "@/lib/config";
import { getCurrentUserOrNull } from "@/lib/auth/current-user";
import { Card, CardBody } from "@/components/ui/card";
import { DEFAULT_CALLBACK_PATH, safeCallbackUrl } from "@/lib/auth/safe-callback-url";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await getCurrentUserOrNull()) redirect(callbackUrl);
  const config = getConfig();
  const githubEnabled = Boolean(config.GITHUB_ID && config.GITHUB_SECRET);
  // next-auth sends OAuth failures back here as ?error=...
  const oauthError = typeof params.error === "string" ? params.error : undefined;
  return (
    <Card>
      <CardBody className="space-y-6 px-6 py-6">
        <div>
          <h1 className="text-xl font-semibold tracking-tight">Sign in to Flowpoint</h1>
          <p className="mt-1 text-sm text-slate-500">Welcome back. Use the email and password you signed up with.</p>
        </div>
        <SignInForm callbackUrl={callbackUrl} githubEnabled={githubEnabled} oauthError={oauthError} />
        <p className="text-center text-sm text-slate-500">
          No account yet?{" "}
          <Link
            href={`/sign-up${callbackUrl !== DEFAULT_CALLBACK_PATH ? `?callbackUrl=${encodeURIComponent(callbackUrl)}` : ""}`}
            className="font-medium text-indigo-600 hover:text-indigo-500"
          >
            Create one
          </Link>
        </p>
      </CardBody>
    </Card>
  );
}

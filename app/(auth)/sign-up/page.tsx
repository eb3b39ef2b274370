import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getConfig } from "@/lib/config";
import { PASSWORD_RULES } from "@/lib/auth/password";
import { getCurrentUserOrNull } from "@/lib/auth/current-user";
import { Card, CardBody } from "@/components/ui/card";
import { DEFAULT_CALLBACK_PATH, safeCallbackUrl } from "@/lib/auth/safe-callback-url";
import { SignUpForm } from "./sign-up-form";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const callbackUrl = safeCallbackUrl((await searchParams).callbackUrl);
  if (await getCurrentUserOrNull()) redirect(callbackUrl);
  const config = getConfig();
  return (
    <Card>
      <CardBody className="space-y-6 px-6 py-6">
        <div>
          <h1 className="text-xl font-semibold tracking-tight">Create your account</h1>
          <p className="mt-1 text-sm text-slate-500">Build custom endpoints over the database you own.</p>
        </div>
        <SignUpForm callbackUrl={callbackUrl} githubEnabled={Boolean(config.GITHUB_ID && config.GITHUB_SECRET)} minPasswordLength={PASSWORD_RULES.minLength} />
        <p className="text-center text-sm text-slate-500">
          Already have an account?{" "}
          <Link
            href={`/sign-in${callbackUrl !== DEFAULT_CALLBACK_PATH ? `?callbackUrl=${encodeURIComponent(callbackUrl)}` : ""}`}
            className="font-medium text-indigo-600 hover:text-indigo-500"
          >
            Sign in
          </Link>
        </p>
      </CardBody>
    </Card>
  );
}

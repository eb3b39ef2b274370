import type { Metadata } from "next";
import { ResetPasswordForm } from "./reset-password-form";

export const metadata: Metadata = { title: { absolute: "Choose a new password" } };

type Props = { params: Promise<{ projectId: string; schema: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The page a password-reset email links to: a new password, sent with the token from the link. */
export default async function ResetPasswordPage({ params, searchParams }: Props) {
  const { projectId, schema } = await params;
  const { token } = await searchParams;
  return <ResetPasswordForm projectId={projectId} schema={schema} token={typeof token === "string" ? token : ""} />;
}

import type { Metadata } from "next";
import { VerifyEmail } from "./verify-email";

export const metadata: Metadata = { title: { absolute: "Confirm your email address" } };

type Props = { params: Promise<{ projectId: string; schema: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The page a verification email links to: it confirms the address with the token from the link. */
export default async function VerifyEmailPage({ params, searchParams }: Props) {
  const { projectId, schema } = await params;
  const { token } = await searchParams;
  return <VerifyEmail projectId={projectId} schema={schema} token={typeof token === "string" ? token : ""} />;
}

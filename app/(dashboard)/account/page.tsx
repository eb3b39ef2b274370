import type { Metadata } from "next";
import { getCurrentUser } from "@/lib/auth/current-user";
import { PASSWORD_RULES } from "@/lib/auth/password";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { ChangePasswordForm } from "./change-password-form";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await getCurrentUser({ returnTo: "/account" });
  return (
    <>
      <PageHeader title="Account" description={`Signed in as ${user.email}.`} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="Change password" />
          <CardBody>
            <ChangePasswordForm minPasswordLength={PASSWORD_RULES.minLength} />
          </CardBody>
        </Card>
        <Card className="h-fit">
          <CardHeader title="Sessions" />
          <CardBody>
            <p className="text-sm text-slate-600">
              A session lasts 7 days from its last renewal, and 30 days after sign-in at the most. “Sign out everywhere” at the top of the page ends every session of your account,
              on every device, this one included; changing your password ends every other session.
            </p>
          </CardBody>
        </Card>
      </div>
    </>
  );
}

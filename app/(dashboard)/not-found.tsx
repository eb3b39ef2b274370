import { ButtonLink } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";

/** Shown for a workspace or project that does not exist or that the user is not a member of (the same answer for both). */
export default function DashboardNotFound() {
  return (
    <Card className="mx-auto max-w-lg">
      <CardBody className="flex flex-col items-center px-6 py-12 text-center">
        <p className="text-sm font-semibold text-indigo-600">404</p>
        <h1 className="mt-2 text-xl font-semibold text-slate-900">Not found</h1>
        <p className="mt-2 text-sm text-slate-500">This page does not exist, or it belongs to a workspace you are not a member of.</p>
        <ButtonLink href="/workspaces" variant="secondary" className="mt-6">
          Back to your workspaces
        </ButtonLink>
      </CardBody>
    </Card>
  );
}

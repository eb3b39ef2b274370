"use client";

import { Button, ButtonLink } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";

/** A page that failed on the server: a plain apology and a retry; the details are in the server log, never here. */
export default function DashboardError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <Card className="mx-auto max-w-lg">
      <CardBody className="flex flex-col items-center px-6 py-12 text-center">
        <h1 className="text-xl font-semibold text-slate-900">Something went wrong</h1>
        <p className="mt-2 text-sm text-slate-500">This page could not be loaded. Please try again in a moment.</p>
        <div className="mt-6 flex gap-2">
          <Button onClick={reset}>Try again</Button>
          <ButtonLink href="/workspaces" variant="secondary">
            Your workspaces
          </ButtonLink>
        </div>
      </CardBody>
    </Card>
  );
}

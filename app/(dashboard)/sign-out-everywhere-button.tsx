import { SubmitButton } from "@/components/ui/submit-button";
import { signOutEverywhereAction } from "./sign-out-everywhere";

/** Ends the user's sessions on every device; a plain form, so it works before scripts load too. */
export function SignOutEverywhereButton() {
  return (
    <form action={signOutEverywhereAction}>
      <SubmitButton variant="ghost" size="sm" pendingLabel="Signing out…" title="End your sessions on every device and browser">
        Sign out everywhere
      </SubmitButton>
    </form>
  );
}

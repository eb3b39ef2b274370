import { expect, test } from "@playwright/test";
import { PASSWORD, createWorkspace, screenshot, signIn, signOut, signUp, uniqueEmail } from "./helpers";

test("an admin invites a member by email; the invitee reads the mail in the Mailbox, signs up and joins as a member", async ({ page }) => {
  const ownerEmail = uniqueEmail("admin");
  const inviteeEmail = uniqueEmail("invitee");

  await signUp(page, { email: ownerEmail });
  const workspaceId = await createWorkspace(page, "Team Rocket");

  const inviteForm = page.getByRole("form", { name: "Invite a member" });
  await inviteForm.getByLabel("Email address").fill(inviteeEmail);
  await inviteForm.getByLabel("Role").selectOption("member");
  await inviteForm.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${inviteeEmail}`)).toBeVisible();
  await expect(page.getByRole("list", { name: "Pending invitations" })).toContainText(inviteeEmail);
  await expect(inviteForm.getByLabel("Email address")).toHaveValue("");
  await screenshot(page, "20-invitation-sent");

  // The invitation is addressed to the invitee: the admin's mailbox does not show it.
  await page.goto("/mailbox");
  await expect(page.getByText("No mail yet")).toBeVisible();
  await signOut(page);

  await signUp(page, { email: inviteeEmail });
  await expect(page.getByText("You are not in any workspace yet")).toBeVisible();
  await page.getByRole("link", { name: "Mailbox" }).click();
  const messages = page.getByRole("list", { name: "Messages" });
  await expect(messages).toContainText("You are invited to Team Rocket on Flowpoint");
  await screenshot(page, "21-mailbox");

  const link = page.getByRole("link", { name: /\/invitations\// });
  await link.click();
  await expect(page.getByRole("heading", { name: "Join a workspace" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${inviteeEmail}`)).toBeVisible();
  await screenshot(page, "22-invitation");
  const invitationUrl = page.url();
  await page.getByRole("button", { name: "Accept invitation" }).click();

  await expect(page).toHaveURL(new RegExp(`/workspaces/${workspaceId}$`));
  await expect(page.getByText("You are a member", { exact: true })).toBeVisible();
  // Members see the workspace but none of the admin controls.
  await expect(page.getByRole("button", { name: "New project" })).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Invite a member" })).toHaveCount(0);
  await expect(page.getByLabel("Workspace name")).toBeDisabled();
  await expect(page.getByRole("list", { name: "Members" })).toContainText(ownerEmail);
  await screenshot(page, "23-member-view");

  // The link works once.
  await page.goto(invitationUrl);
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This invitation is invalid, used or expired" })).toBeVisible();

  // The admin removes the member again.
  await page.goto("/workspaces");
  await signOut(page);
  await signIn(page, { email: ownerEmail, password: PASSWORD });
  await expect(page).toHaveURL(/\/workspaces$/);
  await page.goto(`/workspaces/${workspaceId}`);
  const members = page.getByRole("list", { name: "Members" });
  await members.getByRole("button", { name: `Remove ${inviteeEmail}` }).click();
  await members.getByRole("button", { name: "Remove member" }).click();
  await expect(members).not.toContainText(inviteeEmail);
  await screenshot(page, "24-member-removed");
});

import { describe, expect } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { getProjectMailTransport } from "@/lib/mail/get-project-mail-transport";
import { startTestSmtpServer } from "@/lib/mail/test-smtp-server";
import { getProjectMailSettings } from "@/lib/projects/get-project-mail-settings";
import { getProjectOrThrow } from "@/lib/projects/get-project-or-throw";
import { setProcessEnv } from "@/test/support/process-env";
import { routeTest } from "@/test/support/route-test";

/**
 * A project's SMTP server is outbound traffic (security issue 9, item 10), over real HTTP: a private
 * host is refused when the settings are saved (422 on mail.host, nothing stored) and again when mail is
 * sent; an allow-listed loopback server works end to end against a real SMTP server.
 */
type Json = Record<string, unknown>;

const it = routeTest
  /** A loopback SMTP server, allow-listed for the outbound guard until the file ends. */
  .extend("smtp", { scope: "file" }, async ({}, { onCleanup }) => {
    const smtp = await startTestSmtpServer();
    const restoreEnv = setProcessEnv({ OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${smtp.port}` });
    onCleanup(async () => {
      await smtp.close();
      restoreEnv();
    });
    return smtp;
  })
  // Only a dependency: the route server starts once the SMTP server is allow-listed.
  .extend("server", { scope: "file" }, ({ smtp: _smtp, server }) => server);

describe("project SMTP settings and the outbound guard", () => {
  it("refuses private SMTP hosts with 422 on mail.host and stores nothing", async ({ project, ownerApi }) => {
    for (const host of ["127.0.0.1", "10.0.0.5", "169.254.169.254", "localhost", "[::1]"]) {
      // Port 2525 is not the allow-listed one: 127.0.0.1 is refused there too.
      const answer = await ownerApi.call<Json>("PATCH", "", { mail: { host, port: 2525, from: "shop@example.test" } });
      expect(answer.status).toBe(422);
      expect(answer.body.issues).toEqual([{ path: "mail.host", message: expect.stringMatching(/^outbound request refused: /) }]);
    }
    expect((await getProjectOrThrow({ projectId: project.projectId })).mailSettingsEncrypted).toBeNull();
  });

  it("saves an allow-listed loopback server and sends through it; a private host saved earlier is refused when sending", async ({ project, ownerApi, smtp }) => {
    const answer = await ownerApi.call<Json>("PATCH", "", { mail: { host: "127.0.0.1", port: smtp.port, from: "shop@example.test" } });
    expect(answer.status).toBe(200);
    const settings = getProjectMailSettings(await getProjectOrThrow({ projectId: project.projectId }));
    expect(settings).toMatchObject({ host: "127.0.0.1", port: smtp.port });
    await getProjectMailTransport({ projectId: project.projectId, settings }).send({ to: ["reader@example.test"], subject: "Through the guard", text: "Hello" });
    expect((await smtp.waitForMessages(1)).map((message) => message.subject)).toEqual(["Through the guard"]);

    // The allow-list no longer names it (or the settings predate the save check): sending is refused.
    process.env.OUTBOUND_ALLOWED_HOSTS = "";
    resetConfigForTests();
    try {
      const refused = await getProjectMailTransport({ projectId: project.projectId, settings })
        .send({ to: ["reader@example.test"], subject: "Must not arrive", text: "Hello" })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: "validation_failed", message: "outbound request refused: 127.0.0.1 is a loopback address" });
      expect(smtp.messages).toHaveLength(1);
    } finally {
      process.env.OUTBOUND_ALLOWED_HOSTS = `127.0.0.1:${smtp.port}`;
      resetConfigForTests();
    }
  });
});

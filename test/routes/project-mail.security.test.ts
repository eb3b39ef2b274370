import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { getProjectMailTransport } from "@/lib/mail/get-project-mail-transport";
import { startTestSmtpServer, type TestSmtpServer } from "@/lib/mail/test-smtp-server";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectMailSettings } from "@/lib/projects/get-project-mail-settings";
import { getProjectOrThrow } from "@/lib/projects/get-project-or-throw";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { projectApi } from "@/test/support/project-api";

/**
 * A project's SMTP server is outbound traffic (security issue 9, item 10), over real HTTP: a private
 * host is refused when the settings are saved (422 on mail.host, nothing stored) and again when mail is
 * sent; an allow-listed loopback server works end to end against a real SMTP server.
 */
type Json = Record<string, unknown>;

describe("project SMTP settings and the outbound guard", () => {
  let server: RouteServer;
  let smtp: TestSmtpServer;
  let project: ProjectFixture;
  const previousAllowedHosts = process.env.OUTBOUND_ALLOWED_HOSTS;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    process.env.OUTBOUND_ALLOWED_HOSTS = `127.0.0.1:${smtp.port}`;
    resetConfigForTests();
    server = await startRouteServer();
    project = await createProjectFixture("Mail tenant");
  });

  afterAll(async () => {
    await server?.close();
    await smtp?.close();
    if (previousAllowedHosts === undefined) delete process.env.OUTBOUND_ALLOWED_HOSTS;
    else process.env.OUTBOUND_ALLOWED_HOSTS = previousAllowedHosts;
    resetConfigForTests();
    await closePlatformDb();
  });

  function saveMail(mail: Json): Promise<{ status: number; body: Json }> {
    return projectApi(server, project).call<Json>("PATCH", "", { mail });
  }

  it("refuses private SMTP hosts with 422 on mail.host and stores nothing", async () => {
    for (const host of ["127.0.0.1", "10.0.0.5", "169.254.169.254", "localhost", "[::1]"]) {
      // Port 2525 is not the allow-listed one: 127.0.0.1 is refused there too.
      const answer = await saveMail({ host, port: 2525, from: "shop@example.test" });
      expect(answer.status).toBe(422);
      expect(answer.body.issues).toEqual([{ path: "mail.host", message: expect.stringMatching(/^outbound request refused: /) }]);
    }
    expect((await getProjectOrThrow({ projectId: project.projectId })).mailSettingsEncrypted).toBeNull();
  });

  it("saves an allow-listed loopback server and sends through it; a private host saved earlier is refused when sending", async () => {
    const answer = await saveMail({ host: "127.0.0.1", port: smtp.port, from: "shop@example.test" });
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

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { closePlatformDb } from "@/lib/platform-db/client";
import { updateProject } from "@/lib/projects/update-project";
import { startTestSmtpServer, type TestSmtpServer } from "@/lib/mail/test-smtp-server";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { projectApi, type ProjectApi } from "@/test/support/project-api";

let server: RouteServer;
let smtp: TestSmtpServer;
let fixture: ProjectFixture;
let key: string;
let api: ProjectApi;

beforeAll(async () => {
  smtp = await startTestSmtpServer({ auth: { user: "mailer", password: "mail-secret" } });
  // Project mail servers pass the outbound guard: this loopback one is allow-listed for the test.
  process.env.OUTBOUND_ALLOWED_HOSTS = `127.0.0.1:${smtp.port}`;
  resetConfigForTests();
  server = await startRouteServer();
  fixture = await createProjectFixture("Mailing");
  await updateProject({
    projectId: fixture.projectId,
    input: { mail: { host: "127.0.0.1", port: smtp.port, secure: false, user: "mailer", password: "mail-secret", from: "Shop <shop@example.test>" } },
  });
  key = await fixture.keyFor(["endpoints.read", "endpoints.create", "endpoints.update", "endpoints.delete"]);
  api = projectApi(server, fixture, { key });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
  delete process.env.OUTBOUND_ALLOWED_HOSTS;
  resetConfigForTests();
  await closePlatformDb();
});

describe("email templates and the email step", () => {
  it("manages templates and sends one from an endpoint through the project's SMTP server, escaping caller values in HTML", async () => {
    const created = await api.manage("/email-templates", {
      method: "POST",
      body: JSON.stringify({ name: "welcome", subject: "Welcome, {{body.name}}", html: "<p>Hello <b>{{body.name}}</b></p>", text: "Hello {{body.name}}" }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const template = (await created.json()) as { id: string };
    expect(template.id).toMatch(/^tpl_/);

    const duplicate = await api.manage("/email-templates", { method: "POST", body: JSON.stringify({ name: "welcome", subject: "x", text: "y" }) });
    expect(duplicate.status).toBe(409);
    const patched = await api.manage(`/email-templates/${template.id}`, { method: "PATCH", body: JSON.stringify({ subject: "Welcome aboard, {{body.name}}" }) });
    expect(patched.status).toBe(200);
    expect((await (await api.manage("/email-templates")).json()) as { data: unknown[] }).toMatchObject({ data: [{ name: "welcome" }] });

    const endpoint = await api.manage("/endpoints", {
      method: "POST",
      body: JSON.stringify({
        name: "Sign up",
        method: "POST",
        slug: "sign-up",
        steps: [{ type: "email", to: "{{body.email}}", template: "welcome" }],
        response: { status: 202, body: '{"sent": true}' },
      }),
    });
    expect(endpoint.status, await endpoint.clone().text()).toBe(201);

    const response = await fetch(`${server.url}/api/projects/${fixture.projectId}/fn/sign-up`, {
      method: "POST",
      body: JSON.stringify({ email: "ann@example.test", name: "<script>alert(1)</script> Ann" }),
    });
    expect(response.status).toBe(202);
    const [mail] = await smtp.waitForMessages(1);
    expect(mail!.envelope.to).toEqual(["ann@example.test"]);
    expect(mail!.user).toBe("mailer");
    expect(mail!.subject).toBe("Welcome aboard, <script>alert(1)</script> Ann");
    expect(mail!.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Ann");
    expect(mail!.html).not.toContain("<script>");
    expect(mail!.text).toBe("Hello <script>alert(1)</script> Ann");

    expect((await api.manage(`/email-templates/${template.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api.manage(`/email-templates/welcome`)).status).toBe(404);
  });
});

import { describe, expect } from "vitest";
import { updateProject } from "@/lib/projects/update-project";
import { startTestSmtpServer } from "@/lib/mail/test-smtp-server";
import { setProcessEnv } from "@/test/support/process-env";
import { routeTest } from "@/test/support/route-test";

const it = routeTest
  /** An SMTP server that wants a login; project mail servers pass the outbound guard, so this loopback one is allow-listed until the file ends. */
  .extend("smtp", { scope: "file" }, async ({}, { onCleanup }) => {
    const smtp = await startTestSmtpServer({ auth: { user: "mailer", password: "mail-secret" } });
    const restoreEnv = setProcessEnv({ OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${smtp.port}` });
    onCleanup(async () => {
      await smtp.close();
      restoreEnv();
    });
    return smtp;
  })
  // Only a dependency: the route server starts once the SMTP server is allow-listed.
  .extend("server", { scope: "file" }, ({ smtp: _smtp, server }) => server)
  /** The client with a key for the endpoints API, on a project whose mail goes to `smtp`. */
  .extend("api", { scope: "file" }, async ({ ownerApi, project, smtp }) => {
    await updateProject({
      projectId: project.projectId,
      input: { mail: { host: "127.0.0.1", port: smtp.port, secure: false, user: "mailer", password: "mail-secret", from: "Shop <shop@example.test>" } },
    });
    return ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.read", "endpoints.create", "endpoints.update", "endpoints.delete"]) } });
  });

describe("email templates and the email step", () => {
  it("manages templates and sends one from an endpoint through the project's SMTP server, escaping caller values in HTML", async ({ smtp, api }) => {
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

    const response = await api.invoke("sign-up", {
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

import { z } from "zod";
import { isSingleMailAddress } from "./mail-address";

const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/;
const emptyToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/**
 * A project's SMTP settings, as the dashboard form and the management API send them. The accounts
 * feature stores them encrypted (JSON in mailSettingsEncrypted) and parses them with this schema
 * again when it reads them back.
 */
export const mailSettingsSchema = z
  .object({
    host: z
      .string()
      .trim()
      .min(1, "the SMTP host is required")
      .max(253)
      .refine((host) => host === "" || HOST.test(host), "the SMTP host is a host name or an IP address"),
    port: z.coerce.number().int().min(1).max(65535).default(587),
    /** true = TLS from the first byte (port 465); false = plain, upgraded with STARTTLS when offered (587). */
    secure: z.boolean().default(false),
    user: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .max(256)
        .regex(/^[^\r\n]*$/, "the user must not contain line breaks")
        .optional(),
    ),
    password: z.preprocess(emptyToUndefined, z.string().max(1024).optional()),
    from: z.string().trim().refine(isSingleMailAddress, "the sender must be one valid email address (Name <a@b.example> or a@b.example)"),
  })
  .superRefine((settings, ctx) => {
    if (settings.user !== undefined && settings.password === undefined) {
      ctx.addIssue({ code: "custom", path: ["password"], message: "a password is required with a user" });
    }
    if (settings.password !== undefined && settings.user === undefined) {
      ctx.addIssue({ code: "custom", path: ["user"], message: "a user is required with a password" });
    }
  });

export type MailSettings = z.output<typeof mailSettingsSchema>;
export type MailSettingsInput = z.input<typeof mailSettingsSchema>;

/** Reads `smtp://user:pass@host:587` / `smtps://...` (SMTP_URL) into settings. */
export function mailSettingsFromSmtpUrl(smtpUrl: string, from: string): MailSettings {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  const user = url.username ? decodeURIComponent(url.username) : undefined;
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  return mailSettingsSchema.parse({
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    user,
    password,
    from,
  });
}

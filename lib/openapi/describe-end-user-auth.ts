import type { SchemaDefinition } from "@/lib/schemas/schema-definition";
import { REGISTER_EMAIL as email, REGISTER_PASSWORD as password, createInputSchemaName, recordSchemaName } from "./describe-record-schemas";
import { endUserScheme, responseRef, schemaRef, type JsonSchema, type OpenApiOperation, type OpenApiPathItem } from "./openapi-document";

const json = (schema: JsonSchema) => ({ "application/json": { schema } });
const body = (schema: JsonSchema): NonNullable<OpenApiOperation["requestBody"]> => ({ required: true, content: json(schema) });

const oneTimeToken = { type: "string", minLength: 1, maxLength: 256, description: "The token of the link the email carried." };

/**
 * The end-user auth routes (app/api/projects/[projectId]/auth/[schema]) of every auth schema:
 * register, login, verify-email, request-password-reset, reset-password and me. They take no API
 * key (a site's visitors call them); `me` takes the end-user token login answers.
 */
export function describeEndUserAuth(schemas: readonly SchemaDefinition[]): Record<string, OpenApiPathItem> {
  const paths: Record<string, OpenApiPathItem> = {};
  for (const schema of schemas) {
    if (schema.kind !== "auth") continue;
    const name = schema.name;
    const tags = [`End-user auth: ${name}`];
    const profile = { description: "The end user's profile.", content: json(schemaRef(recordSchemaName(name))) };
    const refused = { "400": responseRef("BadRequest"), "404": responseRef("NotFound"), "413": responseRef("PayloadTooLarge"), "429": responseRef("RateLimited") };
    const operation = (path: string, id: string, summary: string, description: string, rest: Pick<OpenApiOperation, "requestBody" | "responses" | "security">) => {
      paths[`/auth/${name}/${path}`] = {
        [rest.requestBody ? "post" : "get"]: { operationId: `${id}_${name}`, summary, description, tags, security: rest.security ?? [], ...rest },
      };
    };
    operation("register", "registerEndUser", "Register an end user", "Creates the account and sends a verification email.", {
      requestBody: body(schemaRef(createInputSchemaName(name))),
      responses: { "201": profile, ...refused, "409": responseRef("Conflict"), "422": responseRef("ValidationFailed") },
    });
    operation("login", "logInEndUser", "Log in", "Answers a token valid 7 days, for this project and auth schema only.", {
      requestBody: body({ type: "object", properties: { email, password }, required: ["email", "password"] }),
      responses: {
        "200": {
          description: "The session token and the profile.",
          content: json({
            type: "object",
            properties: { token: { type: "string" }, expiresAt: { type: "string", format: "date-time" }, user: schemaRef(recordSchemaName(name)) },
            required: ["token", "expiresAt", "user"],
          }),
        },
        ...refused,
        "401": responseRef("Unauthorized"),
        "422": responseRef("ValidationFailed"),
      },
    });
    operation("verify-email", "verifyEndUserEmail", "Verify an email address", "Answers the profile, now with emailVerified: true.", {
      requestBody: body({ type: "object", properties: { token: oneTimeToken }, required: ["token"] }),
      responses: { "200": profile, ...refused, "422": responseRef("ValidationFailed") },
    });
    operation("request-password-reset", "requestEndUserPasswordReset", "Ask for a password reset", "Always 202, whether or not the email has an account.", {
      requestBody: body({ type: "object", properties: { email }, required: ["email"] }),
      responses: {
        "202": {
          description: "A reset link is on its way if the account exists.",
          content: json({ type: "object", properties: { message: { type: "string" } }, required: ["message"] }),
        },
        ...refused,
        "422": responseRef("ValidationFailed"),
      },
    });
    operation("reset-password", "resetEndUserPassword", "Reset the password", "Answers the profile; earlier session tokens stop working.", {
      requestBody: body({ type: "object", properties: { token: oneTimeToken, password }, required: ["token", "password"] }),
      responses: { "200": profile, ...refused, "422": responseRef("ValidationFailed") },
    });
    operation("me", "getEndUserProfile", "The signed-in end user", "Needs the token login answered.", {
      security: [{ [endUserScheme(name)]: [] }],
      responses: { "200": profile, "401": responseRef("Unauthorized"), "404": responseRef("NotFound"), "429": responseRef("RateLimited") },
    });
  }
  return paths;
}

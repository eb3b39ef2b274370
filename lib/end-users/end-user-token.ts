import { errors, jwtVerify, SignJWT } from "jose";
import { AppError, isAppError } from "@/lib/errors";
import { getEndUserTokenKey } from "./end-user-token-key";

/** Session tokens are valid this long (docs/DESIGN.md section 6). */
export const END_USER_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
export const END_USER_TOKEN_ISSUER = "flowpoint";
/** Longer text is refused before any parsing. */
const MAX_TOKEN_LENGTH = 4096;

/** The audience binds a token to one project and one auth schema. */
export function endUserTokenAudience(projectId: string, schema: string): string {
  return `${projectId}:${schema}`;
}

export interface SignEndUserTokenOptions {
  projectId: string;
  /** The auth schema's name. */
  schema: string;
  /** The account's record id (the `sub` claim). */
  userId: string;
  /** The account's token epoch (the `ver` claim; see ACCOUNT_FIELDS.tokenEpoch). */
  epoch: string;
  /** The signing time (tests sign expired tokens with a past clock). */
  now?: Date;
}

export interface SignedEndUserToken {
  token: string;
  /** ISO 8601. */
  expiresAt: string;
}

/** Signs a session token: HS256 JWT with sub, aud `<projectId>:<schema>`, iss, iat, exp (+7 days) and ver. */
export async function signEndUserToken(options: SignEndUserTokenOptions): Promise<SignedEndUserToken> {
  const issuedAt = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const expiresAt = issuedAt + END_USER_TOKEN_TTL_SECONDS;
  const token = await new SignJWT({ ver: options.epoch })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(options.userId)
    .setAudience(endUserTokenAudience(options.projectId, options.schema))
    .setIssuer(END_USER_TOKEN_ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(getEndUserTokenKey(options.projectId));
  return { token, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

export interface EndUserTokenClaims {
  userId: string;
  epoch: string;
  issuedAt: Date;
  expiresAt: Date;
}

function refused(message = "invalid token"): AppError {
  return new AppError("unauthorized", message, { headers: { "www-authenticate": 'Bearer realm="end-users"' } });
}

/**
 * Checks a token's signature (HS256 only: `none` and every other algorithm are refused), issuer,
 * audience (this project and schema) and expiry, and answers its claims. No database read: the
 * account and its epoch are checked by verifyEndUserToken. Throws AppError("unauthorized").
 */
export async function readEndUserToken(options: { projectId: string; schema: string; token: string }): Promise<EndUserTokenClaims> {
  if (options.token.length === 0 || options.token.length > MAX_TOKEN_LENGTH) throw refused();
  try {
    const { payload } = await jwtVerify(options.token, getEndUserTokenKey(options.projectId), {
      algorithms: ["HS256"],
      issuer: END_USER_TOKEN_ISSUER,
      audience: endUserTokenAudience(options.projectId, options.schema),
      requiredClaims: ["sub", "iat", "exp", "ver"],
      clockTolerance: 0,
    });
    if (typeof payload.sub !== "string" || typeof payload.ver !== "string" || typeof payload.iat !== "number" || typeof payload.exp !== "number") {
      throw refused();
    }
    return { userId: payload.sub, epoch: payload.ver, issuedAt: new Date(payload.iat * 1000), expiresAt: new Date(payload.exp * 1000) };
  } catch (error) {
    // jose checks the signature before any claim, so "expired" is only said of genuine tokens.
    if (error instanceof errors.JWTExpired) throw refused("the token has expired");
    if (isAppError(error)) throw error;
    throw refused();
  }
}

/** The token of an `Authorization: Bearer <token>` header, or AppError("unauthorized"). */
export function readBearerToken(request: Request): string {
  const header = request.headers.get("authorization");
  const match = header ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) throw refused("a bearer token is required");
  return match[1];
}

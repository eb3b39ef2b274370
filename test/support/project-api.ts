/**
 * One typed client for the route tests: the calls they repeat against a project's HTTP API (management
 * and records routes with the fixture's API key or session cookie, endpoint invocations, multipart
 * uploads, form posts), answering with the response or with its status, headers and parsed body.
 */

/** A management or records error body, or any JSON object. */
export type ApiBody = Record<string, unknown> & {
  error?: string;
  code?: string;
  field?: string;
  issues?: Array<{ path: string; message: string }>;
};

export interface ApiAnswer<T = ApiBody> {
  status: number;
  headers: Headers;
  /** The parsed JSON body; `{}` when the body is empty. */
  body: T;
  text: string;
}

/** Whom the calls are made as: an API key (`Authorization: Bearer`), a session cookie, or no one. */
export type ApiCredentials = { key: string } | { cookie: string } | "anonymous";

export interface ProjectApi {
  projectId: string;
  /** The absolute URL of a path under `/api/projects/:projectId`. */
  url(path?: string): string;
  /** A call with the credentials and nothing else (no content type): `init` as it is, the response as it is. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** A management call with the credentials and a JSON content type (both overridable by `init.headers`). */
  manage(path: string, init?: RequestInit): Promise<Response>;
  /** `manage` by method: a JSON body (`undefined`: none), the response as it is. */
  request(method: string, path: string, body?: unknown): Promise<Response>;
  /** A call whose body (an object, sent as JSON, or a string sent as is) and answer are JSON. */
  call<T = ApiBody>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer<T>>;
  /** A multipart call (uploads). */
  send<T = ApiBody>(method: string, path: string, form: FormData, headers?: Record<string, string>): Promise<ApiAnswer<T>>;
  /** An endpoint invocation (`/fn/:slug`), without the management credentials. */
  invoke(slug: string, init?: RequestInit, search?: string): Promise<Response>;
  /** A form submission (`/forms/:form`), without credentials, redirects not followed. */
  postForm(form: string, init?: RequestInit): Promise<Response>;
  /**
   * The same client for another project, other credentials, another server (an app instance of its
   * own) or with headers sent beside the credentials on every call (the Origin a browser sends with a
   * session, say).
   */
  with(options: { projectId?: string; credentials?: ApiCredentials; server?: { url: string }; headers?: Record<string, string> }): ProjectApi;
}

/** Reads a response into an answer: status, headers, text and the JSON body (`{}` when empty). */
export async function answerOf<T = ApiBody>(response: Response): Promise<ApiAnswer<T>> {
  const text = await response.text();
  let body: T;
  try {
    body = (text ? JSON.parse(text) : {}) as T;
  } catch {
    throw new Error(`${response.status} answer is not JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, headers: response.headers, body, text };
}

function credentialHeaders(credentials: ApiCredentials): Record<string, string> {
  if (credentials === "anonymous") return {};
  return "key" in credentials ? { authorization: `Bearer ${credentials.key}` } : { cookie: credentials.cookie };
}

/**
 * A client for `fixture`'s project on `server`, calling as `credentials` (by default the fixture
 * owner's dashboard session) with `headers` beside them. Their fields are read at each call.
 */
export function projectApi(
  server: { url: string },
  fixture: { projectId: string; owner?: { cookie: string } },
  credentials?: ApiCredentials,
  headers: Record<string, string> = {},
): ProjectApi {
  const auth = (): Record<string, string> => ({ ...credentialHeaders(credentials ?? (fixture.owner ? { cookie: fixture.owner.cookie } : "anonymous")), ...headers });
  const url = (path = "") => `${server.url}/api/projects/${fixture.projectId}${path}`;
  return {
    get projectId() {
      return fixture.projectId;
    },
    url,
    fetch: (path, init = {}) => fetch(url(path), { ...init, headers: { ...auth(), ...((init.headers as Record<string, string> | undefined) ?? {}) } }),
    manage: (path, init = {}) =>
      fetch(url(path), { ...init, headers: { ...auth(), "content-type": "application/json", ...((init.headers as Record<string, string> | undefined) ?? {}) } }),
    request: (method, path, body) =>
      fetch(url(path), { method, headers: { ...auth(), "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }),
    call: async (method, path, body, headers = {}) =>
      answerOf(
        await fetch(url(path), {
          method,
          headers: { ...auth(), ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
          body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
        }),
      ),
    send: async (method, path, form, headers = {}) => answerOf(await fetch(url(path), { method, headers: { ...auth(), ...headers }, body: form })),
    invoke: (slug, init = {}, search = "") => fetch(url(`/fn/${slug}${search}`), init),
    postForm: (form, init = {}) => fetch(url(`/forms/${form}`), { method: "POST", redirect: "manual", ...init }),
    with: (options) =>
      projectApi(
        options.server ?? server,
        options.projectId === undefined ? fixture : { ...fixture, projectId: options.projectId },
        options.credentials ?? credentials,
        options.headers ?? headers,
      ),
  };
}

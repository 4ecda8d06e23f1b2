// Calls to Floe's public APIs: the bearer token (kept in sessionStorage only), JSON in and out,
// and the API's ErrorModel turned into an ApiError the pages show.

const TOKEN_KEY = "floe.console.token";

export const session = {
  token: sessionStorage.getItem(TOKEN_KEY) || "",
  me: null, // the whoami answer
  authOff: false,
};

export function setToken(token) {
  session.token = token;
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

export class ApiError extends Error {
  constructor(message, code, type) {
    super(message);
    this.code = code;
    this.type = type;
  }
}

// Listeners told when a call with a token answers 401 (the token expired or was revoked).
export const onUnauthorized = new Set();

export function headers(extra) {
  const h = { Accept: "application/json", ...extra };
  if (session.token) h.Authorization = "Bearer " + session.token;
  return h;
}

/** fetch() that never throws for an HTTP status: a non-2xx answer becomes an ApiError. */
export async function api(path, { method = "GET", body, signal, noToken = false } = {}) {
  const h = noToken ? { Accept: "application/json" } : headers();
  if (body !== undefined) h["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: "no-store",
    });
  } catch (e) {
    if (e && e.name === "AbortError") throw e;
    throw new ApiError("The server could not be reached (" + (e && e.message) + ")", 0, "NetworkError");
  }
  const text = await response.text();
  let json = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (!response.ok) {
    const err = json && json.error;
    const error = new ApiError(
      (err && err.message) || response.statusText || "Request failed",
      (err && err.code) || response.status,
      (err && err.type) || "HttpError",
    );
    if (response.status === 401 && !noToken && session.token && session.me) {
      onUnauthorized.forEach((f) => f(error));
    }
    throw error;
  }
  return json;
}

/** A path segment; keeps @ and : readable (as-of prefixes). */
export function seg(s) {
  return encodeURIComponent(s).replace(/%40/g, "@").replace(/%3A/gi, ":");
}

/** A namespace in a URL path: levels joined by the unit separator (%1F). */
export function nsPath(levels) {
  return levels.map((l) => encodeURIComponent(l)).join("%1F");
}

export function v1(prefix, rest) {
  return "/v1/" + seg(prefix) + rest;
}

export function mgmt(rest) {
  return "/management/v1" + rest;
}

/** Every page of an Iceberg REST listing (namespaces, tables, views), up to a bound. */
export async function listAll(path, key, signal) {
  const out = [];
  let token = null;
  for (let i = 0; i < 50; i++) {
    const sep = path.includes("?") ? "&" : "?";
    const page = await api(path + (token ? sep + "pageToken=" + encodeURIComponent(token) : ""), { signal });
    out.push(...((page && page[key]) || []));
    token = page && page["next-page-token"];
    if (!token) break;
  }
  return out;
}

/** Whether the signed-in principal administers the warehouse (or everything; or auth is off). */
export function isAdmin(wh) {
  const me = session.me || {};
  if (session.authOff || me.superuser) return true;
  const roles = me.roles || {};
  return roles[wh] === "admin" || roles["*"] === "admin";
}

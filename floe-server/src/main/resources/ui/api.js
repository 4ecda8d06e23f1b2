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

/**
 * JSON.parse that keeps every integer exact: snapshot ids are 64-bit, and a JavaScript number holds
 * only 53 bits, so an integer past Number.MAX_SAFE_INTEGER becomes a BigInt read from its source
 * text (String() of it, === between two of them and object keys all stay exact).
 */
export function parseJson(text) {
  return JSON.parse(text, (key, value, context) =>
    typeof value === "number" && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)
      ? BigInt(context.source)
      : value,
  );
}

/** JSON.stringify that writes a BigInt as the exact number it is. */
export function toJson(value, space) {
  return JSON.stringify(value, (key, v) => (typeof v === "bigint" ? JSON.rawJSON(v.toString()) : v), space);
}

/** A snapshot id for people: "none" for a missing one and for -1 (Iceberg's "no snapshot"). */
export function snapshotId(id) {
  return id === undefined || id === null || id === -1 ? "none" : String(id);
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
      body: body === undefined ? undefined : toJson(body),
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
      json = parseJson(text);
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

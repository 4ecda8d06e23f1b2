// Floe console: sign-in, header, navigation, the as-of picker and the hash router.
import { api, session, setToken, onUnauthorized, mgmt, isAdmin } from "./api.js";
import { h, errorBox, loading, busy, field } from "./ui.js";
import { homePage, namespacePage, tablePage, viewPage } from "./browse.js";
import { livePage, deletedPage, accessPage, auditPage } from "./ops.js";
import { startSignIn, finishSignIn } from "./oidc.js";

const $ = (id) => document.getElementById(id);
let cleanups = [];
let signInMessage = null;

// ---- routes -------------------------------------------------------------------------------

/** A namespace in the hash: levels joined by ".", a "." inside a level escaped. */
export function nsHash(levels) {
  return levels.map((l) => encodeURIComponent(l).replace(/\./g, "%2E")).join(".");
}

function hseg(s) {
  return encodeURIComponent(s).replace(/%40/g, "@").replace(/%3A/gi, ":");
}

export function href(wh, { ns, table, view, page } = {}) {
  let s = "#/w/" + hseg(wh);
  if (page) return s + "/" + page;
  if (ns && ns.length) s += "/ns/" + nsHash(ns);
  if (table !== undefined) s += "/table/" + hseg(table);
  if (view !== undefined) s += "/view/" + hseg(view);
  return s;
}

function dec(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function parseRoute(hash = location.hash) {
  const raw = hash.replace(/^#\/?/, "").split("/").filter((x) => x !== "");
  const r = { page: "home" };
  if (!raw.length) return r;
  if (raw[0] !== "w" || raw.length < 2) return { page: "notfound" };
  r.wh = dec(raw[1]);
  const at = r.wh.indexOf("@");
  r.base = at < 0 ? r.wh : r.wh.slice(0, at);
  r.asOf = at < 0 ? null : r.wh.slice(at + 1);
  const rest = raw.slice(2);
  if (!rest.length) return { ...r, page: "namespace", ns: [] };
  if (rest.length === 1 && ["live", "deleted", "access", "audit"].includes(rest[0])) return { ...r, page: rest[0] };
  if (rest[0] === "ns" && rest.length >= 2) {
    r.ns = rest[1].split(".").map(dec);
    if (rest.length === 2) return { ...r, page: "namespace" };
    if (rest.length === 4 && rest[2] === "table") return { ...r, page: "table", table: dec(rest[3]) };
    if (rest.length === 4 && rest[2] === "view") return { ...r, page: "view", view: dec(rest[3]) };
  }
  return { page: "notfound", wh: r.wh, base: r.base, asOf: r.asOf };
}

// ---- as-of ---------------------------------------------------------------------------------

/** An ISO-8601 instant in UTC from what was typed (no zone: UTC). */
export function toInstant(text) {
  let t = text.trim().replace(" ", "T");
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) t += "T00:00:00";
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t)) t += "Z";
  const ms = Date.parse(t);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(t) || isNaN(ms)) return null;
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

function applyAsOf(route, instant) {
  const wh = instant ? route.base + "@" + instant : route.base;
  if (["namespace", "table", "view"].includes(route.page)) {
    location.hash = href(wh, { ns: route.ns, table: route.table, view: route.view });
  } else {
    location.hash = href(wh);
  }
}

// ---- chrome --------------------------------------------------------------------------------

function renderChrome(route) {
  const me = session.me;
  $("who").replaceChildren(
    me
      ? h(
          "span",
          { class: "who-inner" },
          h("span", { class: "muted" }, session.authOff ? "Auth off: " : "Signed in as "),
          h("strong", { "data-test": "principal" }, me.principal || "anonymous"),
          me.superuser ? h("span", { class: "badge" }, "superuser") : null,
          session.authOff ? null : h("button", { type: "button", class: "ghost", "data-test": "sign-out", onclick: signOut }, "Sign out"),
        )
      : "",
  );
  $("where").replaceChildren(route.base ? h("span", null, "Warehouse ", h("strong", null, route.base)) : "");

  const nav = $("nav");
  if (!me) {
    nav.replaceChildren();
    nav.hidden = true;
    $("banner").replaceChildren();
    return;
  }
  nav.hidden = false;
  const cur = route.page;
  const link = (page, text, to, active) =>
    h("a", { href: to, "data-test": "nav-" + page, "aria-current": active ? "page" : null }, text);
  const items = [link("warehouses", "Warehouses", "#/", cur === "home")];
  if (route.base) {
    const live = route.base;
    items.push(
      link("browse", "Browse", href(route.wh), ["namespace", "table", "view"].includes(cur)),
      link("live", "Live", href(live, { page: "live" }), cur === "live"),
      link("deleted", "Deleted", href(live, { page: "deleted" }), cur === "deleted"),
    );
    if (isAdmin(live)) {
      items.push(
        link("access", "Access", href(live, { page: "access" }), cur === "access"),
        link("audit", "Audit", href(live, { page: "audit" }), cur === "audit"),
      );
    }
  }
  const links = h("div", { class: "nav-links" }, items);
  let picker = null;
  if (route.base) {
    const input = h("input", {
      type: "text",
      "data-test": "as-of-input",
      placeholder: "2026-12-02T08:00:00Z",
      value: route.asOf || "",
      inputmode: "text",
      autocomplete: "off",
      spellcheck: "false",
    });
    const msg = h("span", { class: "asof-msg" });
    picker = h(
      "form",
      {
        class: "asof",
        onsubmit: (ev) => {
          ev.preventDefault();
          const instant = toInstant(input.value);
          if (!instant) {
            msg.replaceChildren(errorBox({ message: "Not an ISO-8601 time: " + input.value }));
            return;
          }
          applyAsOf(route, instant);
        },
      },
      field("As of (UTC)", input),
      h("button", { type: "submit", "data-test": "as-of-apply" }, "Apply"),
      route.asOf ? h("button", { type: "button", class: "ghost", "data-test": "as-of-clear", onclick: () => applyAsOf(route, null) }, "Back to live") : null,
      msg,
    );
  }
  nav.replaceChildren(links, picker || "");

  $("banner").replaceChildren(
    route.asOf
      ? h(
          "div",
          { class: "asof-banner", role: "note", "data-test": "as-of-banner" },
          h("strong", null, "Read-only: as of " + route.asOf),
          " — warehouse ",
          h("code", null, route.wh),
          " shows the catalog as it was then (replayed from the log).",
        )
      : "",
  );
}

// ---- sign-in ---------------------------------------------------------------------------------

function renderSignIn() {
  renderChrome({ page: "signin" });
  const input = h("input", { id: "token", type: "password", autocomplete: "off", required: true, spellcheck: "false" });
  const out = h("div", { class: "out" }, signInMessage ? errorBox(signInMessage) : null);
  const button = h("button", { id: "sign-in", type: "submit" }, "Sign in");
  const form = h(
    "form",
    {
      class: "card signin",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const token = input.value.trim();
        if (!token) {
          out.replaceChildren(errorBox({ message: "Enter an API token." }));
          return;
        }
        await busy(button, out, async () => {
          setToken(token);
          try {
            session.me = await api(mgmt("/whoami"));
          } catch (e) {
            setToken("");
            throw e;
          }
          session.authOff = session.me.authenticated === false;
          signInMessage = null;
          render();
        });
      },
    },
    h("h1", { tabindex: "-1" }, "Sign in to Floe"),
    h("p", { class: "muted" }, "Paste an API token (floe_…) or an OIDC access token. It is kept in this tab only (sessionStorage)."),
    h("div", { class: "field" }, h("label", { for: "token" }, "API token"), input),
    button,
    out,
  );
  const oidc = session.settings && session.settings.oidc;
  const withIssuer = oidc
    ? h(
        "div",
        { class: "card signin" },
        h("p", null, "Or sign in with your organisation's identity provider."),
        h("button", { type: "button", "data-test": "oidc-sign-in", onclick: () => startSignIn(oidc) }, "Sign in with the identity provider"),
      )
    : null;
  $("main").replaceChildren(form, ...(withIssuer ? [withIssuer] : []));
  input.focus();
}

function signOut() {
  setToken("");
  session.me = null;
  signInMessage = null;
  if (location.hash && location.hash !== "#/") location.hash = "#/";
  else render();
}

onUnauthorized.add((e) => {
  setToken("");
  session.me = null;
  signInMessage = { message: "Signed out: " + e.message, code: e.code, type: e.type };
  render();
});

// ---- router ---------------------------------------------------------------------------------

const PAGES = {
  home: homePage,
  namespace: namespacePage,
  table: tablePage,
  view: viewPage,
  live: livePage,
  deleted: deletedPage,
  access: accessPage,
  audit: auditPage,
};

async function render() {
  cleanups.forEach((f) => {
    try {
      f();
    } catch {
      /* ignore */
    }
  });
  cleanups = [];
  if (!session.me) {
    renderSignIn();
    return;
  }
  const route = parseRoute();
  renderChrome(route);
  const page = h("div", { class: "page" });
  $("main").replaceChildren(page);
  const handler = PAGES[route.page];
  const ctx = { route, href, nsHash, isAdmin, onCleanup: (f) => cleanups.push(f), rerender: render };
  if (!handler) {
    page.append(h("h1", { tabindex: "-1" }, "Not found"), errorBox({ message: "No page at " + location.hash, code: 404, type: "NotFound" }));
    return;
  }
  try {
    await handler(ctx, page);
  } catch (e) {
    const box = errorBox(e);
    if (box) page.append(box);
  }
}

window.addEventListener("hashchange", () => {
  render().then(() => {
    const h1 = document.querySelector("main h1");
    if (h1 && document.activeElement === document.body) h1.focus({ preventScroll: true });
  });
});

// Nothing should reach the console unhandled; if it does, show it.
window.addEventListener("unhandledrejection", (ev) => {
  ev.preventDefault();
  if (ev.reason && ev.reason.name === "AbortError") return;
  const box = errorBox(ev.reason);
  if (box) $("main").prepend(box);
});

async function boot() {
  $("main").replaceChildren(loading("Connecting…"));
  try {
    // Whether callers sign in, from the server that serves the console: no request is sent
    // only to be refused.
    const settings = await api("/ui/console-config.json", { noToken: true });
    session.settings = settings;
    session.authOff = settings.auth === "none";
    if (session.authOff) setToken("");
    try {
      const issued = settings.oidc ? await finishSignIn(settings.oidc) : null;
      if (issued) setToken(issued);
    } catch (e) {
      signInMessage = e;
    }
    session.me =
      session.authOff || session.token
        ? await api(mgmt("/whoami"), { noToken: session.authOff })
        : null;
    if (session.me) session.authOff = session.me.authenticated === false;
  } catch (e) {
    session.me = null;
    if (e.code === 401) {
      if (session.token) signInMessage = e;
      setToken("");
    } else {
      $("main").replaceChildren(
        h("h1", null, "Floe console"),
        errorBox(e),
        h("button", { type: "button", onclick: boot }, "Try again"),
      );
      return;
    }
  }
  render();
}

boot();

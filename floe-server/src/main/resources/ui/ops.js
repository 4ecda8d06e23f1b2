// Warehouse pages beside browsing: the live feed, dropped entities, access, audit.
import { api, session, headers, v1, mgmt, nsPath, ApiError, isAdmin, parseJson } from "./api.js";
import { h, errorBox, loading, fmtTime, section, table, busy, field } from "./ui.js";

const OP_TYPES = [
  "create-namespace", "update-namespace-properties", "drop-namespace",
  "create-table", "register-table", "update-table", "drop-table", "rename-table",
  "create-view", "update-view", "drop-view", "rename-view", "x-floe.register-view",
  "x-floe.restore-namespace", "x-floe.expunge-namespace", "x-floe.restore-table", "x-floe.restore-view",
  "x-floe.expunge-table", "x-floe.expunge-view", "x-floe.purge-files", "x-floe.purge-refused", "x-floe.maintain-table", "x-floe.change-access",
];

const idName = (id) => (id ? [...(id.namespace || []), id.name].join(".") : "");
const whPath = (wh) => "/warehouses/" + encodeURIComponent(wh);
const nsText = (levels) => (levels || []).join(".");
const nsLevels = (text) => text.split(".").map((s) => s.trim()).filter(Boolean);

/** The full name an event is about ("db.t", "db.a → db.b", "db"). */
export function objectName(op) {
  if (!op) return "";
  if (op.identifier) return idName(op.identifier);
  if (op.source && op.destination) return idName(op.source) + " → " + idName(op.destination);
  if (op.namespace) return nsText(op.namespace);
  if (op.location) return op.location;
  if (op.change) {
    const c = op.change;
    return [c.op, c.principal || c.name || "", c.namespace ? nsText(c.namespace) + (c.table ? "." + c.table : "") : ""].filter(Boolean).join(" ");
  }
  return "";
}

// ---- #/w/{wh}/live ---------------------------------------------------------------------------

export async function livePage(ctx, root) {
  const wh = ctx.route.base;
  const events = []; // newest first
  const seen = new Set();
  const nameInput = h("input", { type: "search", "data-test": "live-filter-name", placeholder: "db.sales or db.t", autocomplete: "off" });
  const typeSelect = h("select", { "data-test": "live-filter-type" }, h("option", { value: "" }, "All types"), OP_TYPES.map((t) => h("option", { value: t }, t)));
  const status = h("span", { class: "status", "data-test": "live-status", role: "status" }, "connecting…");
  const errBox = h("div");
  const list = h("ol", { class: "feed", "data-test": "live-events", "aria-live": "polite" });
  const empty = h("p", { class: "muted" }, "Waiting for changes… The stream starts at the end of the log: new commits appear here as they are acknowledged.");
  const recentBtn = h("button", { type: "button", class: "ghost", "data-test": "live-load-recent" }, "Load the last hour");
  const clearBtn = h("button", { type: "button", class: "ghost", onclick: () => { events.length = 0; seen.clear(); draw(); } }, "Clear");

  root.append(
    h("h1", { tabindex: "-1" }, "Live changes in ", h("code", null, wh)),
    h(
      "div",
      { class: "toolbar" },
      field("Namespace or table", nameInput),
      field("Type", typeSelect),
      h("div", { class: "toolbar-end" }, status, recentBtn, clearBtn),
    ),
    errBox,
    section("Events (newest first)", null, empty, list),
  );

  const matches = (e) => {
    const op = e.operation || {};
    const want = nameInput.value.trim().toLowerCase();
    if (typeSelect.value && op["operation-type"] !== typeSelect.value) return false;
    if (want && !objectName(op).toLowerCase().includes(want)) return false;
    return true;
  };
  const item = (e) => {
    const op = e.operation || {};
    return h(
      "li",
      { "data-test": "live-event", "data-event-id": e["event-id"] },
      h("span", { class: "op" }, op["operation-type"] || "?"),
      " ",
      h("strong", { class: "obj" }, objectName(op)),
      " ",
      h("span", { class: "muted" }, "by "),
      h("span", { class: "actor" }, (e.actor && e.actor.id) || "?"),
      " ",
      h("time", { class: "muted" }, fmtTime(e["timestamp-ms"])),
    );
  };
  function draw() {
    const shown = events.filter(matches).slice(0, 300);
    list.replaceChildren(...shown.map(item));
    empty.hidden = shown.length > 0;
  }
  nameInput.addEventListener("input", draw);
  typeSelect.addEventListener("change", draw);
  const add = (e, live) => {
    if (!e || !e["event-id"] || seen.has(e["event-id"])) return;
    seen.add(e["event-id"]);
    if (live) events.unshift(e);
    else events.push(e);
    events.sort((a, b) => (b["timestamp-ms"] || 0) - (a["timestamp-ms"] || 0));
    if (events.length > 1000) events.length = 1000;
  };

  recentBtn.addEventListener("click", () =>
    busy(recentBtn, errBox, async () => {
      let token = null;
      const since = Date.now() - 3600_000;
      for (let i = 0; i < 10; i++) {
        const body = token ? { "continuation-token": token, "page-size": 500 } : { "since-timestamp-ms": since, "page-size": 500 };
        const page = await api(v1(wh, "/events"), { method: "POST", body });
        (page.events || []).forEach((e) => add(e, false));
        token = page["continuation-token"];
        if (!page.events || !page.events.length) break;
      }
      draw();
    }),
  );

  // The stream, read with fetch() so it can carry the Authorization header.
  const controller = new AbortController();
  let stopped = false;
  ctx.onCleanup(() => {
    stopped = true;
    controller.abort();
  });
  let lastId = null;
  let delay = 1000;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  async function once() {
    const hs = headers({ Accept: "text/event-stream" });
    if (lastId) hs["Last-Event-ID"] = lastId;
    const response = await fetch(v1(wh, "/events/stream"), { headers: hs, signal: controller.signal, cache: "no-store" });
    if (!response.ok) {
      let err = null;
      try {
        err = (await response.json()).error;
      } catch {
        /* not JSON */
      }
      throw new ApiError((err && err.message) || response.statusText, (err && err.code) || response.status, (err && err.type) || "HttpError");
    }
    status.textContent = "connected";
    status.className = "status ok";
    errBox.replaceChildren();
    delay = 1000;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buf = "";
    let data = [];
    let type = "";
    let id = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      const lines = buf.split(/\r\n|\r|\n/);
      buf = lines.pop();
      for (const line of lines) {
        if (line === "") {
          if (id !== null) lastId = id;
          if (data.length) dispatch(type || "message", data.join("\n"));
          data = [];
          type = "";
          id = null;
          continue;
        }
        if (line.startsWith(":")) continue;
        const i = line.indexOf(":");
        const name = i < 0 ? line : line.slice(0, i);
        let val = i < 0 ? "" : line.slice(i + 1);
        if (val.startsWith(" ")) val = val.slice(1);
        if (name === "data") data.push(val);
        else if (name === "event") type = val;
        else if (name === "id") id = val;
      }
    }
  }
  function dispatch(type, text) {
    let json;
    try {
      json = parseJson(text);
    } catch {
      return;
    }
    if (type === "error") {
      const err = json.error || json;
      errBox.replaceChildren(errorBox(new ApiError(err.message || "Stream error", err.code, err.type)));
      if (err.code === 410) lastId = null; // the log no longer holds where we were: start at its end
      return;
    }
    add(json, true);
    draw();
  }
  (async () => {
    while (!stopped) {
      try {
        await once();
        if (stopped) return;
        status.textContent = "stream ended, reconnecting…";
        status.className = "status warn";
      } catch (e) {
        if (stopped || (e && e.name === "AbortError")) return;
        status.textContent = "disconnected";
        status.className = "status bad";
        errBox.replaceChildren(errorBox(e) || "");
        if (e.code === 401 || e.code === 403 || e.code === 404) return; // retrying will not help
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 15000);
    }
  })();
  draw();
}

// ---- #/w/{wh}/deleted ------------------------------------------------------------------------

export async function deletedPage(ctx, root) {
  const wh = ctx.route.base;
  const msg = h("div", { role: "status", "aria-live": "polite" });
  const box = h("div", { class: "body" });
  root.append(
    h("h1", { tabindex: "-1" }, "Dropped in ", h("code", null, wh)),
    h("p", { class: "muted" }, "Tables, views and namespaces dropped and kept for the warehouse's recovery period. Restore brings one back as it was; expunge ends its recovery period now."),
    msg,
    section("Kept entities", null, box),
  );

  const targetOf = (d) => (d.kind === "namespace" ? { kind: d.kind, namespace: d.namespace } : { kind: d.kind, namespace: d.namespace, name: d.name, uuid: d.uuid });
  const label = (d) => d.kind + " " + (d.kind === "namespace" ? nsText(d.namespace) : nsText(d.namespace) + "." + d.name);

  async function load() {
    box.replaceChildren(loading());
    let list;
    try {
      list = (await api(mgmt(whPath(wh) + "/deleted"))).deleted || [];
    } catch (e) {
      box.replaceChildren(errorBox(e));
      return;
    }
    if (!list.length) {
      box.replaceChildren(h("p", { class: "muted", "data-test": "deleted-empty" }, "Nothing dropped is kept."));
      return;
    }
    list.sort((a, b) => b["deleted-at-ms"] - a["deleted-at-ms"]);
    box.replaceChildren(
      table(
        ["Kind", "Namespace", "Name", "UUID", "Deleted at", "Expires at", "Deleted by", ""],
        list.map((d) => row(d)),
        { class: "grid-table" },
      ),
    );
  }

  function row(d) {
    const actions = h("td", { class: "actions" });
    const out = h("div");
    const restore = h("button", { type: "button", "data-test": "restore" }, "Restore");
    const expunge = h("button", { type: "button", class: "danger", "data-test": "expunge" }, "Expunge");
    const normal = () => actions.replaceChildren(restore, " ", expunge, out);
    restore.addEventListener("click", () =>
      busy(restore, out, async () => {
        const r = await api(mgmt(whPath(wh) + "/deleted/restore"), { method: "POST", body: targetOf(d) });
        const to =
          r.kind === "table" ? ctx.href(wh, { ns: r.namespace, table: r.name }) : r.kind === "view" ? ctx.href(wh, { ns: r.namespace, view: r.name }) : ctx.href(wh, { ns: r.namespace });
        const restoredName = r.kind === "namespace" ? nsText(r.namespace) : nsText(r.namespace) + "." + r.name;
        msg.replaceChildren(
          h("div", { class: "message ok", "data-test": "message" }, "Restored " + r.kind + " " + restoredName + ". ", h("a", { href: to, "data-test": "restored-link" }, "Open " + restoredName)),
        );
        await load();
      }),
    );
    expunge.addEventListener("click", () => {
      const retain = h("input", { type: "checkbox", "data-test": "retain-data" });
      const confirm = h("button", { type: "button", class: "danger", "data-test": "confirm" }, "Expunge for good");
      const cancel = h("button", { type: "button", class: "ghost", "data-test": "cancel", onclick: () => { normal(); expunge.focus(); } }, "Cancel");
      confirm.addEventListener("click", () =>
        busy(confirm, out, async () => {
          const body = targetOf(d);
          if (retain.checked) body["retain-data"] = true;
          await api(mgmt(whPath(wh) + "/deleted/expunge"), { method: "POST", body });
          msg.replaceChildren(h("div", { class: "message ok", "data-test": "message" }, "Expunged " + label(d) + "; it can no longer be restored."));
          await load();
        }),
      );
      actions.replaceChildren(
        h(
          "div",
          { class: "confirm", role: "group", "aria-label": "Confirm expunge" },
          h("span", null, "Expunge " + label(d) + "? This cannot be undone."),
          d["purge-requested"] || d.kind === "namespace" ? h("label", { class: "check" }, retain, " keep its data files") : null,
          confirm,
          cancel,
        ),
        out,
      );
      confirm.focus();
    });
    normal();
    return h(
      "tr",
      { "data-test": "deleted-row" },
      h("td", null, d.kind),
      h("td", null, nsText(d.namespace)),
      h("td", null, d.name || ""),
      h("td", null, h("code", { class: "small" }, d.uuid || "")),
      h("td", null, fmtTime(d["deleted-at-ms"])),
      h("td", null, fmtTime(d["expires-at-ms"])),
      h("td", null, d["deleted-by"]),
      actions,
    );
  }
  await load();
}

// ---- #/w/{wh}/access -------------------------------------------------------------------------

export async function accessPage(ctx, root) {
  const wh = ctx.route.base;
  const me = session.me;
  root.append(h("h1", { tabindex: "-1" }, "Access to ", h("code", null, wh)));
  if (!isAdmin(wh)) {
    // Who may do what is for the warehouse's admins; a reader sends nothing bound to be refused.
    root.append(
      errorBox({ message: "Access pages are for the warehouse's admins", code: 403, type: "ForbiddenException" }),
    );
    return;
  }
  const parts = [];
  if (me.superuser) parts.push(principalsSection(wh));
  parts.push(tokensSection(me), grantsSection(wh), visibilitySection(wh));
  root.append(...parts.map((p) => p.el));
  await Promise.all(parts.map((p) => p.load && p.load()));
}

function principalsSection(wh) {
  const box = h("div", { class: "body" });
  const out = h("div");
  const name = h("input", { type: "text", "data-test": "principal-name", required: true, autocomplete: "off" });
  const kind = h("select", { "data-test": "principal-kind" }, h("option", { value: "user" }, "user"), h("option", { value: "service" }, "service"));
  const email = h("input", { type: "email", "data-test": "principal-email", autocomplete: "off" });
  const submit = h("button", { type: "submit", "data-test": "principal-submit" }, "Create principal");
  const rp = h("input", { type: "text", "data-test": "role-principal", required: true, autocomplete: "off" });
  const rw = h("input", { type: "text", "data-test": "role-warehouse", value: wh, required: true, autocomplete: "off" });
  const rr = h("select", { "data-test": "role-role" }, ["reader", "writer", "admin", "none"].map((r) => h("option", { value: r }, r)));
  const rsubmit = h("button", { type: "submit", "data-test": "role-submit" }, "Set role");
  const rout = h("div");

  async function load() {
    box.replaceChildren(loading());
    try {
      const ps = (await api(mgmt("/principals"))).principals || [];
      ps.sort((a, b) => a.name.localeCompare(b.name));
      box.replaceChildren(
        table(
          ["Name", "Kind", "Email", "Roles"],
          ps.map((p) =>
            h(
              "tr",
              { "data-test": "principal-row" },
              h("td", null, p.name),
              h("td", null, p.kind),
              h("td", null, p.email || ""),
              h("td", null, Object.entries(p.roles || {}).map(([w, r]) => w + ": " + r).join(", ") || h("span", { class: "muted" }, "none")),
            ),
          ),
          { class: "grid-table", "data-test": "principals" },
        ),
      );
    } catch (e) {
      box.replaceChildren(errorBox(e));
    }
  }
  const el = section(
    "Principals",
    null,
    box,
    h(
      "div",
      { class: "grid" },
      h(
        "form",
        {
          class: "form",
          onsubmit: (ev) => {
            ev.preventDefault();
            busy(submit, out, async () => {
              const body = { name: name.value.trim(), kind: kind.value };
              if (email.value.trim()) body.email = email.value.trim();
              await api(mgmt("/principals"), { method: "POST", body });
              out.replaceChildren(h("div", { class: "message ok", "data-test": "message" }, "Created principal " + body.name + "."));
              name.value = "";
              email.value = "";
              await load();
            });
          },
        },
        h("h3", null, "Create a principal"),
        field("Name", name),
        field("Kind", kind),
        field("Email (optional)", email),
        submit,
        out,
      ),
      h(
        "form",
        {
          class: "form",
          onsubmit: (ev) => {
            ev.preventDefault();
            busy(rsubmit, rout, async () => {
              const path = mgmt("/principals/" + encodeURIComponent(rp.value.trim()) + "/roles/" + encodeURIComponent(rw.value.trim()));
              if (rr.value === "none") await api(path, { method: "DELETE" });
              else await api(path, { method: "PUT", body: { role: rr.value } });
              rout.replaceChildren(h("div", { class: "message ok", "data-test": "message" }, "Role of " + rp.value.trim() + " in " + rw.value.trim() + ": " + rr.value + "."));
              await load();
            });
          },
        },
        h("h3", null, "Set a role"),
        field("Principal", rp),
        field("Warehouse (or *)", rw),
        field("Role", rr),
        rsubmit,
        rout,
      ),
    ),
  );
  return { el, load };
}

function tokensSection(me) {
  const who = h("input", { type: "text", "data-test": "token-principal", value: me.principal || "", required: true, autocomplete: "off" });
  const expires = h("input", { type: "number", min: "1", max: "315360000", "data-test": "token-expires", placeholder: "never" });
  const listBtn = h("button", { type: "button", class: "ghost", "data-test": "token-list" }, "List tokens");
  const createBtn = h("button", { type: "submit", "data-test": "token-create" }, "Create token");
  const out = h("div");
  const fresh = h("div");
  const box = h("div", { class: "body" });

  async function load() {
    const p = who.value.trim();
    if (!p) return;
    box.replaceChildren(loading());
    try {
      const ts = (await api(mgmt("/principals/" + encodeURIComponent(p) + "/tokens"))).tokens || [];
      box.replaceChildren(
        ts.length
          ? table(
              ["Token ID", "Principal", "Expires", ""],
              ts.map((t) => {
                const revoke = h("button", { type: "button", class: "danger", "data-test": "token-revoke" }, "Revoke");
                const rout = h("div");
                revoke.addEventListener("click", () =>
                  busy(revoke, rout, async () => {
                    await api(mgmt("/tokens/" + encodeURIComponent(t.id)), { method: "DELETE" });
                    out.replaceChildren(h("div", { class: "message ok", "data-test": "message" }, "Revoked " + t.id + "."));
                    await load();
                  }),
                );
                return h("tr", { "data-test": "token-row" }, h("td", null, h("code", null, t.id)), h("td", null, t.principal), h("td", null, t["expires-at-ms"] ? fmtTime(t["expires-at-ms"]) : "never"), h("td", null, revoke, rout));
              }),
              { class: "grid-table" },
            )
          : h("p", { class: "muted" }, "No tokens for " + p + "."),
      );
    } catch (e) {
      box.replaceChildren(errorBox(e));
    }
  }
  listBtn.addEventListener("click", () => busy(listBtn, out, load));
  const el = section(
    "Tokens",
    null,
    h(
      "form",
      {
        class: "form row",
        onsubmit: (ev) => {
          ev.preventDefault();
          busy(createBtn, out, async () => {
            const p = who.value.trim();
            const body = expires.value ? { "expires-in-seconds": Number(expires.value) } : {};
            const t = await api(mgmt("/principals/" + encodeURIComponent(p) + "/tokens"), { method: "POST", body });
            const shown = h("input", { type: "text", readonly: true, value: t.token, "data-test": "new-token", class: "token", onfocus: (e) => e.target.select() });
            fresh.replaceChildren(
              h("div", { class: "message ok" }, h("p", null, "New token ", h("code", null, t.id), " for " + t.principal + ". It is shown only now: copy it."), field("Token", shown)),
            );
            await load();
          });
        },
      },
      field("Principal", who),
      field("Expires in seconds (optional)", expires),
      createBtn,
      listBtn,
    ),
    out,
    fresh,
    box,
  );
  return { el, load };
}

function grantsSection(wh) {
  const box = h("div", { class: "body" });
  const out = h("div");
  const principal = h("input", { type: "text", "data-test": "grant-principal", required: true, autocomplete: "off" });
  const ns = h("input", { type: "text", "data-test": "grant-namespace", required: true, placeholder: "db.sales", autocomplete: "off" });
  const tbl = h("input", { type: "text", "data-test": "grant-table", placeholder: "optional", autocomplete: "off" });
  const action = h("select", { "data-test": "grant-action" }, ["read", "write", "manage"].map((a) => h("option", { value: a }, a)));
  const submit = h("button", { type: "submit", "data-test": "grant-submit" }, "Grant");

  async function load() {
    box.replaceChildren(loading());
    try {
      const g = await api(mgmt(whPath(wh) + "/grants"));
      const grants = (g.grants || []).sort((a, b) => (a.principal + nsText(a.namespace)).localeCompare(b.principal + nsText(b.namespace)));
      const pub = g["public-namespaces"] || [];
      box.replaceChildren(
        grants.length
          ? table(
              ["Principal", "Namespace", "Table or view", "Action", ""],
              grants.map((gr) => {
                const revoke = h("button", { type: "button", class: "danger", "data-test": "grant-revoke" }, "Revoke");
                const rout = h("div");
                revoke.addEventListener("click", () =>
                  busy(revoke, rout, async () => {
                    const body = { principal: gr.principal, namespace: gr.namespace };
                    if (gr.table) body.table = gr.table;
                    await api(mgmt(whPath(wh) + "/grants/revoke"), { method: "POST", body });
                    out.replaceChildren(h("div", { class: "message ok", "data-test": "message" }, "Revoked " + gr.action + " of " + gr.principal + " on " + nsText(gr.namespace) + (gr.table ? "." + gr.table : "") + "."));
                    await load();
                  }),
                );
                return h("tr", { "data-test": "grant" }, h("td", null, gr.principal), h("td", null, nsText(gr.namespace)), h("td", null, gr.table || ""), h("td", null, h("span", { class: "badge" }, gr.action)), h("td", null, revoke, rout));
              }),
              { class: "grid-table" },
            )
          : h("p", { class: "muted" }, "No grants you can see."),
        h("p", { class: "muted" }, "Public namespaces: " + (pub.length ? pub.map(nsText).join(", ") : "none")),
      );
    } catch (e) {
      box.replaceChildren(errorBox(e));
    }
  }
  const el = section(
    "Grants",
    null,
    box,
    h(
      "form",
      {
        class: "form row",
        onsubmit: (ev) => {
          ev.preventDefault();
          busy(submit, out, async () => {
            const levels = nsLevels(ns.value);
            if (!levels.length) throw new ApiError("Name a namespace (levels joined by '.').", 400, "BadRequest");
            const body = { principal: principal.value.trim(), namespace: levels, action: action.value };
            if (tbl.value.trim()) body.table = tbl.value.trim();
            await api(mgmt(whPath(wh) + "/grants"), { method: "POST", body });
            out.replaceChildren(h("div", { class: "message ok", "data-test": "message" }, "Granted " + body.action + " to " + body.principal + " on " + levels.join(".") + (body.table ? "." + body.table : "") + "."));
            await load();
          });
        },
      },
      h("h3", { class: "full" }, "Grant"),
      field("Principal", principal),
      field("Namespace", ns),
      field("Table or view (optional)", tbl),
      field("Action", action),
      submit,
    ),
    out,
  );
  return { el, load };
}

function visibilitySection(wh) {
  const ns = h("input", { type: "text", "data-test": "visibility-namespace", required: true, placeholder: "db", autocomplete: "off" });
  const getBtn = h("button", { type: "submit", "data-test": "visibility-get" }, "Get");
  const sel = h("select", { "data-test": "visibility-select" }, h("option", { value: "PRIVATE" }, "PRIVATE"), h("option", { value: "AUTHENTICATED_PUBLIC" }, "AUTHENTICATED_PUBLIC"));
  const setBtn = h("button", { type: "button", "data-test": "visibility-set" }, "Set");
  const out = h("div", { role: "status" });
  const path = () => {
    const levels = nsLevels(ns.value);
    if (!levels.length) throw new ApiError("Name a namespace (levels joined by '.').", 400, "BadRequest");
    return mgmt(whPath(wh) + "/namespaces/" + nsPath(levels) + "/visibility");
  };
  const show = (v) => out.replaceChildren(h("p", null, nsText(v.namespace) + ": ", h("span", { class: "badge", "data-test": "visibility" }, v.visibility)));
  setBtn.addEventListener("click", () =>
    busy(setBtn, out, async () => {
      const p = path();
      await api(p, { method: "PUT", body: { visibility: sel.value } });
      show(await api(p));
    }),
  );
  const el = section(
    "Namespace visibility",
    null,
    h(
      "form",
      {
        class: "form row",
        onsubmit: (ev) => {
          ev.preventDefault();
          busy(getBtn, out, async () => {
            const v = await api(path());
            sel.value = v.visibility;
            show(v);
          });
        },
      },
      field("Namespace", ns),
      getBtn,
      field("Visibility", sel),
      setBtn,
    ),
    out,
  );
  return { el };
}

// ---- #/w/{wh}/audit --------------------------------------------------------------------------

/** The record's route template, which names its method already ("POST /v1/{prefix}/events"). */
function requestLine(r) {
  return r.route && r.route.startsWith(r.method + " ") ? r.route : r.method + " " + r.route;
}

export async function auditPage(ctx, root) {
  const wh = ctx.route.base;
  root.append(h("h1", { tabindex: "-1" }, "Audit log of ", h("code", null, wh)));
  if (!isAdmin(wh)) {
    root.append(errorBox({ message: "The audit log is for the warehouse's admins", code: 403, type: "ForbiddenException" }));
    return;
  }
  const status = h("input", { type: "text", "data-test": "audit-status", placeholder: "403,5xx", autocomplete: "off" });
  const principal = h("input", { type: "text", "data-test": "audit-principal", autocomplete: "off" });
  const submit = h("button", { type: "submit", "data-test": "audit-apply" }, "Show");
  const out = h("div");
  const load = async () => {
    const q = new URLSearchParams();
    if (status.value.trim()) q.set("status", status.value.trim());
    if (principal.value.trim()) q.set("principal", principal.value.trim());
    q.set("limit", "200");
    out.replaceChildren(loading());
    try {
      const records = (await api(mgmt(whPath(wh) + "/audit?" + q))).records || [];
      out.replaceChildren(
        records.length
          ? table(
              ["Time", "Principal", "Request", "Target", "Status", "Error"],
              records.map((r) =>
                h(
                  "tr",
                  { "data-test": "audit-row" },
                  h("td", { class: "nowrap" }, r.time),
                  h("td", null, r.principal),
                  h("td", { class: "nowrap" }, h("code", { class: "small nowrap" }, requestLine(r))),
                  h("td", null, r.target || ""),
                  h("td", null, String(r.status)),
                  h("td", null, r.errorType ? r.errorType + ": " + (r.message || "") : ""),
                ),
              ),
              { "data-test": "audit" },
            )
          : h("p", { class: "muted", "data-test": "audit-empty" }, "No request outcome matches."),
      );
    } catch (e) {
      out.replaceChildren(errorBox(e));
    }
  };
  root.append(
    section(
      "Request outcomes, newest first",
      null,
      h("p", { class: "muted" }, "Changes, denials and failures recorded on floe.audit (the newest records of each partition are searched)."),
      h(
        "form",
        { class: "row", onsubmit: (ev) => { ev.preventDefault(); load(); } },
        field("Status (e.g. 403 or 4xx)", status),
        field("Principal", principal),
        submit,
      ),
      out,
    ),
  );
  const access = h("div");
  root.append(
    section(
      "Data access, newest minute first",
      null,
      h("p", { class: "muted" }, "Engines' S3 requests to tables' files that Floe signed and refused (remote signing), per principal, table and minute, recorded on floe.data-access once the minute is over."),
      access,
    ),
  );
  await load();
  try {
    const counts = (await api(mgmt(whPath(wh) + "/data-access?limit=200"))).records || [];
    access.replaceChildren(
      counts.length
        ? table(
            ["Minute", "Principal", "Table", "Operation", "Signed", "Refused"],
            counts.map((r) =>
              h(
                "tr",
                { "data-test": "data-access-row" },
                h("td", { class: "nowrap" }, r.minute),
                h("td", null, r.principal),
                h("td", null, r.table),
                h("td", null, r.operation),
                h("td", null, String(r.signed)),
                h("td", null, String(r.refused)),
              ),
            ),
            { "data-test": "data-access" },
          )
        : h("p", { class: "muted", "data-test": "data-access-empty" }, "No signed or refused S3 request recorded."),
    );
  } catch (e) {
    access.replaceChildren(errorBox(e));
  }
}

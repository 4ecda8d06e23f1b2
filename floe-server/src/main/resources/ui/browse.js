// Browse pages: warehouses, namespaces, tables, views (live or as of a past instant).
import { api, session, v1, mgmt, nsPath, listAll, toJson, snapshotId } from "./api.js";
import { h, svg, errorBox, loading, fmtTime, section, kvTable, table } from "./ui.js";

const AUTHOR_NAME = "floe.author-name";
const AUTHOR_ID = "floe.author-id";
const AUTHOR_EMAIL = "floe.author-email";
const LINEAGE_PREFIX = "floe.source.";

/** Fills a section's body: a loading line, then what fn returns, or the API's error. */
async function fill(box, fn) {
  box.replaceChildren(loading());
  try {
    const content = await fn();
    box.replaceChildren(...[].concat(content).filter((x) => x !== null && x !== undefined));
  } catch (e) {
    box.replaceChildren(errorBox(e) || "");
  }
}

function crumbs(ctx, last) {
  const { route, href } = ctx;
  const parts = [h("a", { href: "#/" }, "Warehouses"), h("a", { href: href(route.wh) }, route.wh)];
  const ns = route.ns || [];
  ns.forEach((_, i) => parts.push(h("a", { href: href(route.wh, { ns: ns.slice(0, i + 1) }) }, ns[i])));
  if (last) parts.push(h("span", { "aria-current": "page" }, last));
  const items = [];
  parts.forEach((p, i) => items.push(h("li", null, p)));
  return h("nav", { class: "crumbs", "aria-label": "Breadcrumb" }, h("ol", null, items));
}

const fullName = (ns, name) => [...ns, name].join(".");

// ---- #/ --------------------------------------------------------------------------------------

export async function homePage(ctx, root) {
  const me = session.me;
  const whs = me.warehouses && me.warehouses.length ? me.warehouses : me["default-warehouse"] ? [me["default-warehouse"]] : [];
  const roles = me.roles || {};
  root.append(
    h("h1", { tabindex: "-1" }, "Warehouses"),
    whs.length
      ? h(
          "ul",
          { class: "list cards" },
          whs.map((w) =>
            h(
              "li",
              null,
              h("a", { href: ctx.href(w), "data-test": "warehouse" }, w),
              w === me["default-warehouse"] ? h("span", { class: "badge" }, "default") : null,
              roles[w] || roles["*"] ? h("span", { class: "muted" }, " role: " + (roles[w] || roles["*"])) : null,
            ),
          ),
        )
      : h("p", { class: "muted" }, "You can see no warehouse."),
    section(
      "You",
      null,
      h(
        "dl",
        { class: "meta" },
        h("dt", null, "Principal"),
        h("dd", null, me.principal || "anonymous"),
        h("dt", null, "Superuser"),
        h("dd", null, me.superuser ? "yes" : "no"),
        h("dt", null, "Roles"),
        h("dd", null, Object.keys(roles).length ? Object.entries(roles).map(([w, r]) => w + ": " + r).join(", ") : "none (grants only)"),
      ),
    ),
  );
}

// ---- #/w/{wh}[/ns/{ns}] -----------------------------------------------------------------------

export async function namespacePage(ctx, root) {
  const { route, href } = ctx;
  const ns = route.ns || [];
  const title = ns.length ? ns.join(".") : "Warehouse " + route.wh;
  const nsBox = h("div", { class: "body" });
  const tBox = h("div", { class: "body" });
  const vBox = h("div", { class: "body" });
  const pBox = h("div", { class: "body" });
  const visBox = h("div", { class: "body" });
  root.append(crumbs(ctx), h("h1", { tabindex: "-1" }, title));
  const grid = h("div", { class: "grid" }, section("Namespaces", null, nsBox));
  if (ns.length) grid.append(section("Tables", null, tBox), section("Views", null, vBox));
  root.append(grid);
  if (ns.length) {
    root.append(h("div", { class: "grid" }, section("Properties", null, pBox), route.asOf ? null : section("Visibility", null, visBox)));
  }

  // Ask for the namespace first: when it (or the warehouse) is missing or forbidden, say so once.
  let nsProps = null;
  if (ns.length) {
    try {
      nsProps = (await api(v1(route.wh, "/namespaces/" + nsPath(ns)))).properties || {};
    } catch (e) {
      grid.replaceWith(errorBox(e) || "");
      root.querySelectorAll(".grid").forEach((g) => g.remove());
      return;
    }
  }
  const linkList = (items, test, make) =>
    items.length ? h("ul", { class: "list" }, items.map((x) => h("li", null, make(x)))) : h("p", { class: "muted" }, "None.");

  const jobs = [
    fill(nsBox, async () => {
      const q = ns.length ? "?parent=" + nsPath(ns) : "";
      const children = await listAll(v1(route.wh, "/namespaces" + q), "namespaces");
      children.sort((a, b) => a.join(".").localeCompare(b.join(".")));
      return linkList(children, "namespace", (c) =>
        h("a", { href: href(route.wh, { ns: c }), "data-test": "namespace" }, c.join(".")),
      );
    }),
  ];
  if (ns.length) {
    const base = v1(route.wh, "/namespaces/" + nsPath(ns));
    jobs.push(
      fill(tBox, async () => {
        const ids = await listAll(base + "/tables", "identifiers");
        ids.sort((a, b) => a.name.localeCompare(b.name));
        return linkList(ids, "table", (t) => h("a", { href: href(route.wh, { ns, table: t.name }), "data-test": "table" }, t.name));
      }),
      fill(vBox, async () => {
        const ids = await listAll(base + "/views", "identifiers");
        ids.sort((a, b) => a.name.localeCompare(b.name));
        return linkList(ids, "view", (v) => h("a", { href: href(route.wh, { ns, view: v.name }), "data-test": "view" }, v.name));
      }),
      fill(pBox, async () => kvTable(nsProps, { "data-test": "properties" })),
    );
    if (!route.asOf) {
      jobs.push(
        fill(visBox, async () => {
          try {
            const vis = await api(mgmt("/warehouses/" + encodeURIComponent(route.base) + "/namespaces/" + nsPath(ns) + "/visibility"));
            return [
              h("p", null, h("span", { class: "badge", "data-test": "visibility" }, vis.visibility)),
              h("p", { class: "muted" }, vis.visibility === "PRIVATE" ? "Only principals with a role or a grant see it." : "Every authenticated principal may read it."),
            ];
          } catch (e) {
            if (e.code === 403) return h("p", { class: "muted" }, "Not readable with your rights.");
            throw e;
          }
        }),
      );
    }
  }
  await Promise.all(jobs);
}

// ---- schema helpers ---------------------------------------------------------------------------

export function typeStr(t) {
  if (typeof t === "string") return t;
  if (!t || typeof t !== "object") return String(t);
  if (t.type === "struct") return "struct<" + (t.fields || []).map((f) => f.name + ": " + typeStr(f.type)).join(", ") + ">";
  if (t.type === "list") return "list<" + typeStr(t.element) + ">";
  if (t.type === "map") return "map<" + typeStr(t.key) + ", " + typeStr(t.value) + ">";
  return toJson(t);
}

/** Every field of a schema, nested struct fields after their parent, with dotted names. */
function flatFields(fields, prefix = "", depth = 0, out = []) {
  for (const f of fields || []) {
    out.push({ ...f, path: prefix + f.name, depth });
    let t = f.type;
    let p = prefix + f.name + ".";
    if (t && t.type === "list") {
      t = t.element;
      p += "element.";
    } else if (t && t.type === "map") {
      t = t.value;
      p += "value.";
    }
    if (t && t.type === "struct") flatFields(t.fields, p, depth + 1, out);
  }
  return out;
}

function schemaTable(schema) {
  const rows = flatFields(schema.fields).map((f) =>
    h(
      "tr",
      { "data-test": "field", class: f.depth ? "nested d" + Math.min(f.depth, 4) : null },
      h("td", { class: "num" }, f.id),
      h("td", null, h("code", null, f.path)),
      h("td", null, h("code", null, typeStr(f.type))),
      h("td", null, f.required ? "required" : "optional"),
      h("td", { class: "muted" }, f.doc || ""),
    ),
  );
  return table(["ID", "Name", "Type", "Required", "Doc"], rows, { "data-test": "schema", class: "grid-table" });
}

function schemaChanges(prev, cur) {
  if (!prev) return [h("li", null, "First schema.")];
  const a = new Map(flatFields(prev.fields).map((f) => [f.id, f]));
  const b = new Map(flatFields(cur.fields).map((f) => [f.id, f]));
  const out = [];
  for (const [id, f] of b) {
    const o = a.get(id);
    if (!o) out.push(h("li", { class: "add" }, "added ", h("code", null, f.path), " (" + typeStr(f.type) + ")"));
    else {
      if (o.path !== f.path) out.push(h("li", null, "renamed ", h("code", null, o.path), " → ", h("code", null, f.path)));
      if (typeStr(o.type) !== typeStr(f.type) && !(typeof f.type === "object"))
        out.push(h("li", null, h("code", null, f.path), ": " + typeStr(o.type) + " → " + typeStr(f.type)));
      if (!!o.required !== !!f.required) out.push(h("li", null, h("code", null, f.path), f.required ? " made required" : " made optional"));
    }
  }
  for (const [id, f] of a) if (!b.has(id)) out.push(h("li", { class: "del" }, "removed ", h("code", null, f.path)));
  return out.length ? out : [h("li", null, "No field changes.")];
}

function schemaSection(schemas, currentId) {
  const sorted = [...(schemas || [])].sort((x, y) => x["schema-id"] - y["schema-id"]);
  const body = h("div");
  const select = h(
    "select",
    { id: "schema-id", "data-test": "schema-select" },
    sorted.map((s) =>
      h("option", { value: s["schema-id"], selected: s["schema-id"] === currentId ? "selected" : null }, "Schema " + s["schema-id"] + (s["schema-id"] === currentId ? " (current)" : "")),
    ),
  );
  const show = () => {
    const id = Number(select.value);
    const i = sorted.findIndex((s) => s["schema-id"] === id);
    const s = sorted[i];
    if (!s) return body.replaceChildren(h("p", { class: "muted" }, "No schema."));
    body.replaceChildren(
      schemaTable(s),
      h("h3", null, i > 0 ? "Changes from schema " + sorted[i - 1]["schema-id"] : "Changes"),
      h("ul", { class: "changes", "data-test": "schema-changes" }, schemaChanges(sorted[i - 1], s)),
    );
  };
  select.addEventListener("change", show);
  show();
  return [h("div", { class: "field inline" }, h("label", { for: "schema-id" }, "Schema version"), select), body];
}

function fieldName(schemas, id) {
  for (const s of schemas || []) {
    const f = flatFields(s.fields).find((x) => x.id === id);
    if (f) return f.path;
  }
  return "#" + id;
}

// ---- #/w/{wh}/ns/{ns}/table/{t} ---------------------------------------------------------------

export async function tablePage(ctx, root) {
  const { route } = ctx;
  const ns = route.ns;
  const name = fullName(ns, route.table);
  root.append(crumbs(ctx, route.table), h("h1", { tabindex: "-1" }, h("span", { class: "muted kind" }, "Table "), name));
  const body = h("div", { class: "body" }, loading());
  root.append(body);
  const path = v1(route.wh, "/namespaces/" + nsPath(ns) + "/tables/" + encodeURIComponent(route.table));
  let loaded;
  try {
    loaded = await api(path);
  } catch (e) {
    body.replaceChildren(errorBox(e));
    return;
  }
  const m = loaded.metadata || {};
  const schemas = m.schemas || [];
  const refsBySnap = {};
  for (const [rn, r] of Object.entries(m.refs || {})) (refsBySnap[r["snapshot-id"]] ||= []).push({ name: rn, ...r });

  // Overview
  const overview = h(
    "dl",
    { class: "meta", "data-test": "table-overview" },
    [
      ["UUID", m["table-uuid"]],
      ["Format version", m["format-version"]],
      ["Location", m.location],
      ["Current snapshot", snapshotId(m["current-snapshot-id"])],
      ["Last updated", fmtTime(m["last-updated-ms"])],
      ["Metadata file", loaded["metadata-location"]],
    ].flatMap(([k, v]) => [h("dt", null, k), h("dd", null, h("code", null, v === undefined || v === null ? "" : String(v)))]),
  );

  // Partition specs
  const specs = m["partition-specs"] || [];
  const spec = specs.find((s) => s["spec-id"] === m["default-spec-id"]) || specs[0];
  const specTable = (s) =>
    s && s.fields && s.fields.length
      ? table(
          ["Field ID", "Name", "Transform", "Source"],
          s.fields.map((f) => h("tr", null, h("td", { class: "num" }, f["field-id"]), h("td", null, f.name), h("td", null, h("code", null, f.transform)), h("td", null, h("code", null, fieldName(schemas, f["source-id"]))))),
          { class: "grid-table" },
        )
      : h("p", { class: "muted" }, "Unpartitioned.");
  const partition = h(
    "div",
    { "data-test": "partition-spec" },
    h("p", { class: "muted" }, "Spec " + (spec ? spec["spec-id"] : "—") + " (default)"),
    specTable(spec),
    specs.length > 1 ? h("details", null, h("summary", null, "All specs (" + specs.length + ")"), specs.map((s) => [h("h3", null, "Spec " + s["spec-id"]), specTable(s)])) : null,
  );

  // Sort order
  const orders = m["sort-orders"] || [];
  const order = orders.find((o) => o["order-id"] === m["default-sort-order-id"]);
  const sort = h(
    "div",
    { "data-test": "sort-order" },
    order && order.fields && order.fields.length
      ? [
          h("p", { class: "muted" }, "Order " + order["order-id"] + " (default)"),
          table(
            ["Source", "Transform", "Direction", "Nulls"],
            order.fields.map((f) => h("tr", null, h("td", null, h("code", null, fieldName(schemas, f["source-id"]))), h("td", null, h("code", null, f.transform)), h("td", null, f.direction), h("td", null, f["null-order"]))),
            { class: "grid-table" },
          ),
        ]
      : h("p", { class: "muted" }, "Unsorted."),
  );

  // Refs
  const refEntries = Object.entries(m.refs || {}).sort(([a], [b]) => a.localeCompare(b));
  const refs = refEntries.length
    ? table(
        ["Name", "Type", "Snapshot", "Retention"],
        refEntries.map(([rn, r]) =>
          h(
            "tr",
            { "data-test": "ref" },
            h("td", null, h("code", null, rn)),
            h("td", null, h("span", { class: "badge " + r.type }, r.type)),
            h("td", null, h("code", null, String(r["snapshot-id"]))),
            h("td", { class: "muted" }, [r["max-ref-age-ms"] ? "max age " + r["max-ref-age-ms"] + " ms" : "", r["min-snapshots-to-keep"] ? " keep " + r["min-snapshots-to-keep"] : ""].join("").trim() || "default"),
          ),
        ),
        { "data-test": "refs", class: "grid-table" },
      )
    : h("p", { class: "muted", "data-test": "refs" }, "No branches or tags.");

  // Snapshots
  const snaps = [...(m.snapshots || [])].sort((a, b) => b["timestamp-ms"] - a["timestamp-ms"] || b["sequence-number"] - a["sequence-number"]);
  const snapList = snaps.length
    ? h(
        "ol",
        { class: "timeline", "data-test": "snapshots" },
        snaps.map((s) => {
          const sum = s.summary || {};
          const author = sum[AUTHOR_NAME] || sum[AUTHOR_ID] || "unknown";
          const lineage = Object.keys(sum).filter((k) => k.startsWith(LINEAGE_PREFIX)).sort();
          const rest = Object.keys(sum).filter((k) => k !== "operation" && !k.startsWith(LINEAGE_PREFIX) && !k.startsWith("floe.author-")).sort();
          return h(
            "li",
            { "data-test": "snapshot", class: s["snapshot-id"] === m["current-snapshot-id"] ? "current" : null },
            h(
              "div",
              { class: "snap-head" },
              h("span", { class: "op op-" + (sum.operation || "unknown") }, sum.operation || "unknown"),
              h("code", { "data-test": "snapshot-id" }, String(s["snapshot-id"])),
              h("time", { datetime: fmtTime(s["timestamp-ms"]) }, fmtTime(s["timestamp-ms"])),
              h("span", null, "by ", h("strong", { "data-test": "author", title: sum[AUTHOR_EMAIL] || sum[AUTHOR_ID] || "" }, author)),
              (refsBySnap[s["snapshot-id"]] || []).map((r) => h("span", { class: "badge " + r.type }, r.name)),
            ),
            h("div", { class: "muted small" }, "parent " + snapshotId(s["parent-snapshot-id"]) + " · sequence " + (s["sequence-number"] ?? "—") + " · schema " + (s["schema-id"] ?? "—")),
            lineage.length
              ? h("dl", { class: "summary lineage-keys", "data-test": "snapshot-lineage" }, lineage.flatMap((k) => [h("dt", null, k), h("dd", null, sum[k])]))
              : null,
            rest.length ? h("dl", { class: "summary" }, rest.flatMap((k) => [h("dt", null, k), h("dd", null, sum[k])])) : null,
          );
        }),
      )
    : h("p", { class: "muted", "data-test": "snapshots" }, "No snapshots yet.");

  // Metadata log
  const mlog = [...(m["metadata-log"] || [])].sort((a, b) => b["timestamp-ms"] - a["timestamp-ms"]);
  const metaLog = h(
    "ol",
    { class: "mlog", "data-test": "metadata-log" },
    h("li", null, h("time", null, fmtTime(m["last-updated-ms"])), " ", h("code", null, loaded["metadata-location"] || ""), h("span", { class: "badge" }, "current")),
    mlog.map((e) => h("li", null, h("time", null, fmtTime(e["timestamp-ms"])), " ", h("code", null, e["metadata-file"]))),
  );

  const lineageBox = h("div", { class: "body", "data-test": "lineage" });
  const maintenanceBox = h("div", { class: "body", "data-test": "maintenance" });
  const raw = h("details", { "data-test": "raw-metadata" }, h("summary", null, "Raw metadata JSON"), h("pre", { class: "raw" }, toJson(loaded.metadata, 2)));

  body.replaceChildren(
    section("Overview", null, overview),
    section("Schema", { class: "card wide" }, schemaSection(schemas, m["current-schema-id"])),
    h("div", { class: "grid" }, section("Partition spec", null, partition), section("Sort order", null, sort)),
    h("div", { class: "grid" }, section("Properties", null, kvTable(m.properties, { "data-test": "properties" })), section("Branches and tags", null, refs)),
    section("Snapshots (newest first)", null, snapList),
    section("Lineage", null, route.asOf ? h("p", { class: "muted" }, "Lineage is the catalog's current index, not as of " + route.asOf + ".") : null, lineageBox),
    route.asOf ? null : section("Maintenance", null, maintenanceBox),
    section("Metadata log", null, metaLog),
    section("Raw metadata", null, raw),
  );
  await Promise.all([
    fill(lineageBox, () => lineageView(ctx, ns, route.table)),
    route.asOf ? null : fill(maintenanceBox, () => maintenanceView(route.base, ns, route.table)),
  ]);
}

const fmtBytes = (n) => {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) (n /= 1024), i++;
  return (i ? n.toFixed(1) : String(n)) + " " + units[i];
};

/** Whether the catalog maintains the table on its schedule, and its last recorded run. */
async function maintenanceView(wh, ns, tname) {
  const status = await api(mgmt("/warehouses/" + encodeURIComponent(wh) + "/namespaces/" + nsPath(ns) + "/tables/" + encodeURIComponent(tname) + "/maintenance"));
  const s = status.schedule || {};
  const schedule = h(
    "p",
    { "data-test": "maintenance-schedule" },
    s.scheduled ? "Snapshots expire on the catalog's schedule, every " + s.interval + " (" : "Not maintained on a schedule (",
    h("code", null, s.because || ""),
    ").",
  );
  const r = status["last-run"];
  if (!r) return [schedule, h("p", { class: "muted", "data-test": "maintenance-last-run" }, "No maintenance run recorded.")];
  const run = h(
    "dl",
    { class: "meta", "data-test": "maintenance-last-run" },
    [
      ["Last run", fmtTime(Date.parse(r.at)) + " (" + r.trigger + ", by " + r.principal + ")"],
      ["Snapshots", r["expired-snapshots"] + " expired, " + r["remaining-snapshots"] + " kept"],
      ["Files deleted", r["deleted-files"] + " (" + fmtBytes(r["deleted-bytes"]) + ")"],
      ["Left outside the table", String(r["kept-outside-table"])],
    ].flatMap(([k, v]) => [h("dt", null, k), h("dd", null, v)]),
  );
  return [schedule, run];
}

function hasRole(wh) {
  const roles = (session.me && session.me.roles) || {};
  return session.authOff || !!(roles[wh] || roles["*"]);
}

async function lineageView(ctx, ns, tname) {
  const { route, href } = ctx;
  const wq = "warehouse=" + encodeURIComponent(route.base);
  const me = fullName(ns, tname);
  const notFound = (e) => (e.code === 404 ? null : Promise.reject(e));
  const [up, down] = await Promise.all([
    api(mgmt("/lineage/tables/" + nsPath(ns) + "/" + encodeURIComponent(tname) + "?" + wq)).catch(notFound),
    // Searching lineage needs a role in the warehouse: without one, do not ask (a sure 403).
    hasRole(route.base)
      ? api(mgmt("/lineage/sources?repo=" + encodeURIComponent(me) + "&" + wq)).catch((e) => (e.code === 403 || e.code === 404 ? { error: e } : Promise.reject(e)))
      : { error: { message: "searching lineage needs a role in the warehouse" } },
  ]);
  // Upstream: distinct sources (repo @ ref) with the snapshots derived from them.
  const sources = new Map();
  for (const s of (up && up.snapshots) || []) {
    const src = s.sources || {};
    const key = (src.repo || "?") + (src.ref ? " @ " + src.ref : "");
    if (!sources.has(key)) sources.set(key, { repo: src.repo, ref: src.ref, snaps: [] });
    sources.get(key).snaps.push(s);
  }
  const downstream = (down && down.tables) || [];
  const out = [];
  if (!sources.size && !downstream.length) {
    out.push(h("p", { class: "muted" }, "No lineage recorded: no snapshot carries floe.source.* keys, and no table names " + me + " as its source."));
  } else {
    out.push(graph(me, [...sources.keys()], downstream.map((d) => ({ label: fullName(d.table.namespace, d.table.name), to: href(route.base, { ns: d.table.namespace, table: d.table.name }) }))));
  }
  out.push(
    h("h3", null, "Upstream"),
    sources.size
      ? h(
          "ul",
          { class: "list", "data-test": "lineage-upstream" },
          [...sources.entries()].map(([key, v]) =>
            h(
              "li",
              null,
              h("code", null, key),
              " → snapshots ",
              v.snaps.map((s) => s["snapshot-id"]).join(", "),
              v.snaps
                .map((s) => s.sources && s.sources.query)
                .filter(Boolean)
                .slice(0, 1)
                .map((q) => h("pre", { class: "sql" }, q)),
            ),
          ),
        )
      : h("p", { class: "muted" }, "None recorded."),
    h("h3", null, "Downstream"),
    down && down.error
      ? h("p", { class: "muted" }, "Not readable: " + down.error.message)
      : downstream.length
        ? h(
            "ul",
            { class: "list", "data-test": "lineage-downstream" },
            downstream.map((d) =>
              h("li", null, h("a", { href: href(route.base, { ns: d.table.namespace, table: d.table.name }) }, fullName(d.table.namespace, d.table.name)), h("span", { class: "muted" }, " · snapshots " + d.snapshots.map((s) => s["snapshot-id"]).join(", "))),
            ),
          )
        : h("p", { class: "muted" }, "No table names " + me + " as floe.source.repo."),
  );
  return out;
}

function graph(center, ups, downs) {
  const W = 760;
  const rowH = 34;
  const n = Math.max(ups.length, downs.length, 1);
  const H = n * rowH + 16;
  const bw = 220;
  const cut = (s) => (s.length > 27 ? s.slice(0, 26) + "…" : s);
  const box = (x, y, label, cls) => [svg("rect", { x, y, width: bw, height: 24, rx: 5, class: cls }), svg("text", { x: x + 8, y: y + 16 }, cut(label))];
  const cy = H / 2 - 12;
  const cx = (W - bw) / 2;
  const parts = [
    svg("defs", null, svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, svg("path", { d: "M0 0L10 5L0 10z", class: "arrowhead" }))),
  ];
  const yOf = (i, len) => 8 + i * rowH + ((n - len) * rowH) / 2;
  ups.forEach((u, i) => {
    const y = yOf(i, ups.length);
    parts.push(svg("path", { d: `M${bw} ${y + 12} C${bw + 40} ${y + 12}, ${cx - 40} ${cy + 12}, ${cx} ${cy + 12}`, class: "edge", "marker-end": "url(#arrow)" }), ...box(0, y, u, "node src"));
  });
  downs.forEach((d, i) => {
    const y = yOf(i, downs.length);
    const x = W - bw;
    parts.push(svg("path", { d: `M${cx + bw} ${cy + 12} C${cx + bw + 40} ${cy + 12}, ${x - 40} ${y + 12}, ${x} ${y + 12}`, class: "edge", "marker-end": "url(#arrow)" }));
    parts.push(svg("a", { href: d.to }, ...box(x, y, d.label, "node down")));
  });
  parts.push(...box(cx, cy, center, "node self"));
  return svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "lineage-graph", role: "img", "aria-label": "Lineage of " + center + ": " + ups.length + " upstream, " + downs.length + " downstream" }, parts);
}

// ---- #/w/{wh}/ns/{ns}/view/{v} ----------------------------------------------------------------

export async function viewPage(ctx, root) {
  const { route } = ctx;
  const ns = route.ns;
  root.append(crumbs(ctx, route.view), h("h1", { tabindex: "-1" }, h("span", { class: "muted kind" }, "View "), fullName(ns, route.view)));
  const body = h("div", { class: "body" }, loading());
  root.append(body);
  let loaded;
  try {
    loaded = await api(v1(route.wh, "/namespaces/" + nsPath(ns) + "/views/" + encodeURIComponent(route.view)));
  } catch (e) {
    body.replaceChildren(errorBox(e));
    return;
  }
  const m = loaded.metadata || {};
  const versions = [...(m.versions || [])].sort((a, b) => b["version-id"] - a["version-id"]);
  const current = versions.find((v) => v["version-id"] === m["current-version-id"]) || versions[0];
  const sqlOf = (v) =>
    (v.representations || []).map((r) =>
      h("div", { class: "sqlrep", "data-test": "view-sql" }, h("div", { class: "muted small" }, (r.type || "sql") + " · dialect " + (r.dialect || "—")), h("pre", { class: "sql" }, r.sql || "")),
    );
  const schema = (m.schemas || []).find((s) => s["schema-id"] === (current && current["schema-id"]));
  body.replaceChildren(
    section(
      "Overview",
      null,
      h(
        "dl",
        { class: "meta" },
        [
          ["UUID", m["view-uuid"]],
          ["Format version", m["format-version"]],
          ["Location", m.location],
          ["Current version", m["current-version-id"]],
          ["Metadata file", loaded["metadata-location"]],
        ].flatMap(([k, v]) => [h("dt", null, k), h("dd", null, h("code", null, v === undefined ? "" : String(v)))]),
      ),
    ),
    section("SQL (current version)", null, current ? sqlOf(current) : h("p", { class: "muted" }, "No version.")),
    section("Schema", null, schema ? schemaTable(schema) : h("p", { class: "muted" }, "No schema.")),
    section(
      "Versions (newest first)",
      null,
      h(
        "ol",
        { class: "timeline" },
        versions.map((v) =>
          h(
            "li",
            { "data-test": "view-version", class: v === current ? "current" : null },
            h(
              "div",
              { class: "snap-head" },
              h("strong", null, "Version " + v["version-id"]),
              h("time", null, fmtTime(v["timestamp-ms"])),
              h("span", { class: "muted" }, "schema " + v["schema-id"]),
              v === current ? h("span", { class: "badge" }, "current") : null,
              v.summary && v.summary["engine-name"] ? h("span", { class: "muted" }, v.summary["engine-name"] + " " + (v.summary["engine-version"] || "")) : null,
            ),
            h("div", { class: "muted small" }, "default namespace " + (v["default-namespace"] || []).join(".") + (v["default-catalog"] ? " · catalog " + v["default-catalog"] : "")),
            h("details", null, h("summary", null, "SQL"), (v.representations || []).map((r) => h("pre", { class: "sql" }, (r.dialect ? "-- " + r.dialect + "\n" : "") + (r.sql || "")))),
          ),
        ),
      ),
    ),
    section("Properties", null, kvTable(m.properties, { "data-test": "properties" })),
    section("Raw metadata", null, h("details", { "data-test": "raw-metadata" }, h("summary", null, "Raw metadata JSON"), h("pre", { class: "raw" }, toJson(m, 2)))),
  );
}

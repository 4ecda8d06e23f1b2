// Small DOM helpers. Text is always set as text (never parsed as HTML).

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

function applyAttrs(el, attrs) {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.setAttribute("class", Array.isArray(v) ? v.filter(Boolean).join(" ") : v);
    else if (k === "value" && "value" in el) el.value = v;
    else if (k === "checked") el.checked = !!v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** The API's error shown as "message (code Type)", in a data-test="error" alert. */
export function errorBox(e) {
  if (e && e.name === "AbortError") return null;
  const message = (e && e.message) || String(e);
  const code = e && e.code ? " (" + e.code + (e.type ? " " + e.type : "") + ")" : "";
  return h("div", { class: "error", role: "alert", "data-test": "error" }, message + code);
}

export function loading(text = "Loading…") {
  return h("p", { class: "loading", "data-test": "loading", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }), text);
}

export function fmtTime(ms) {
  if (ms === undefined || ms === null || ms === "") return "";
  const d = new Date(Number(ms));
  if (isNaN(d)) return String(ms);
  return d.toISOString().replace(".000Z", "Z");
}

/** A section with a heading; its body is filled later (keeps the layout from jumping). */
export function section(title, attrs, ...children) {
  return h("section", { class: "card", ...attrs }, h("h2", null, title), ...children);
}

export function kvTable(obj, attrs) {
  const keys = Object.keys(obj || {}).sort();
  if (!keys.length) return h("p", { class: "muted", ...attrs }, "None.");
  return h(
    "table",
    { class: "kv", ...attrs },
    h("thead", null, h("tr", null, h("th", { scope: "col" }, "Key"), h("th", { scope: "col" }, "Value"))),
    h("tbody", null, keys.map((k) => h("tr", null, h("th", { scope: "row" }, k), h("td", null, String(obj[k]))))),
  );
}

export function table(headers, rows, attrs) {
  return h(
    "table",
    attrs,
    h("thead", null, h("tr", null, headers.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", null, rows),
  );
}

/** Runs an async action for a button, disabling it meanwhile; errors go into `out`. */
export async function busy(button, out, fn) {
  button.disabled = true;
  if (out) out.replaceChildren();
  try {
    return await fn();
  } catch (e) {
    if (out) out.replaceChildren(errorBox(e) || "");
    return undefined;
  } finally {
    button.disabled = false;
  }
}

let idSeq = 0;
export function uid(p) {
  return p + "-" + ++idSeq;
}

/** A labelled field: <label for> + control. */
export function field(labelText, control, hint) {
  if (!control.id) control.id = uid("f");
  return h("div", { class: "field" }, h("label", { for: control.id }, labelText), control, hint ? h("small", { class: "muted" }, hint) : null);
}

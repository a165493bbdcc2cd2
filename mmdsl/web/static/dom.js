// DOM and HTTP helpers: every user-visible string goes through textContent, never innerHTML.

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

export function clear(node) { node.replaceChildren(); return node; }

export class ApiError extends Error {
  constructor(status, errors) {
    super(errors.map((e) => e.text || e.message).join("\n"));
    this.status = status;
    this.errors = errors;
  }
}

let inflight = 0;
let cancelTimer = null;
function busy(delta) {
  inflight += delta;
  $("busy").textContent = inflight > 0 ? "working…" : "";
  clearTimeout(cancelTimer);
  if (inflight > 0) cancelTimer = setTimeout(() => { $("cancel").hidden = false; }, 500); // only for long work
  else $("cancel").hidden = true;
}

export function cancelWork() {
  return fetch("/api/cancel", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
}

export async function api(path, payload) {
  busy(1);
  try {
    const init = payload === undefined ? {} : {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload),
    };
    const resp = await fetch(path, init);
    let body;
    try { body = await resp.json(); } catch { body = { errors: [{ text: `HTTP ${resp.status}` }] }; }
    if (!resp.ok) throw new ApiError(resp.status, body.errors || [{ text: `HTTP ${resp.status}` }]);
    return body;
  } finally {
    busy(-1);
  }
}

export async function apiBlob(path, payload) {
  busy(1);
  try {
    const resp = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
                                     body: JSON.stringify(payload) });
    if (!resp.ok) {
      const body = await resp.json().catch(() => ({}));
      throw new ApiError(resp.status, body.errors || [{ text: `HTTP ${resp.status}` }]);
    }
    return await resp.blob();
  } finally {
    busy(-1);
  }
}

// errors as list items "line L, column C: message"; clicking one puts the caret there
export function showErrors(list, errors, textarea, gutter) {
  if (gutter) gutter.mark((errors || []).map((e) => e.line).filter(Boolean));
  clear(list);
  for (const e of errors || []) {
    const where = e.line ? `line ${e.line}, column ${e.column}: ` : "";
    const li = el("li", { text: where + (e.message || e.text) + (e.expected ? `; expected ${e.expected}` : "") });
    li.dataset.line = e.line || "";
    if (textarea && e.line) li.addEventListener("click", () => caretTo(textarea, e.line, e.column || 1));
    list.append(li);
  }
}

export function caretTo(textarea, line, col) {
  const lines = textarea.value.split("\n");
  let at = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) at += lines[i].length + 1;
  at += Math.max(0, col - 1);
  textarea.focus();
  textarea.setSelectionRange(at, at);
}

// an SVG from the server as a DOM node: parsed as XML, scripts, foreign objects, event handlers
// and external links removed (the page's Content-Security-Policy forbids them too)
export function svgNode(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.nodeName !== "svg") return el("p", { text: "(the diagram could not be read)" });
  for (const bad of svg.querySelectorAll("script, foreignObject, iframe, object, embed")) bad.remove();
  for (const node of [svg, ...svg.querySelectorAll("*")]) {
    for (const attr of [...node.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on") || (name.endsWith("href") && !attr.value.startsWith("#"))) {
        node.removeAttribute(attr.name);
      }
    }
  }
  return document.importNode(svg, true);
}

export function downloadLink(label, filename, blob) {
  const a = el("a", { text: label, download: filename });
  a.href = URL.createObjectURL(blob);
  return a;
}

// line numbers beside a textarea, scrolled with it; the lines in `bad` are marked
export function attachGutter(textarea, gutter) {
  let bad = new Set();
  let shown = -1;
  const render = () => {
    const count = textarea.value.split("\n").length;
    if (count !== shown || gutter.dataset.bad !== [...bad].join(",")) {
      gutter.replaceChildren(...Array.from({ length: count }, (_, i) =>
        el("div", { class: bad.has(i + 1) ? "bad" : "", text: String(i + 1) })));
      shown = count;
      gutter.dataset.bad = [...bad].join(",");
    }
    gutter.scrollTop = textarea.scrollTop;
  };
  textarea.addEventListener("input", render);
  textarea.addEventListener("scroll", () => { gutter.scrollTop = textarea.scrollTop; });
  new ResizeObserver(() => { gutter.style.height = `${textarea.offsetHeight}px`; render(); }).observe(textarea);
  return { render, mark(lines) { bad = new Set(lines); render(); } };
}

// The explorer tab: a server-side session stepped by hand (state, enabled transitions, trace).
import { $, api, clear, el, showErrors } from "./dom.js";

let session = null;

export async function startExploration(inputs) {
  showErrors($("explore-errors"), []);
  try {
    render(await api("/api/explore", inputs));
  } catch (err) {
    session = null;
    render(null);
    showErrors($("explore-errors"), err.errors || [{ text: String(err) }]);
  }
}

async function move(name, payload = {}) {
  if (!session) return;
  showErrors($("explore-errors"), []);
  try {
    render(await api(`/api/explore/${encodeURIComponent(session)}/${name}`, payload));
  } catch (err) {
    showErrors($("explore-errors"), err.errors || [{ text: String(err) }]);
  }
}

function render(view) {
  session = view ? view.session : null;
  for (const id of ["explore-back", "explore-forward", "explore-outcome"]) $(id).disabled = !view;
  $("explore-note").textContent = view ? view.note : "";
  $("explore-position").textContent = view ? `step ${view.position} of ${view.length} · ${view.test} under ${view.model}` : "";
  const memory = $("explore-memory");
  const tbody = $("explore-threads").tBodies[0];
  const list = clear($("explore-transitions"));
  const history = clear($("explore-history"));
  clear(tbody);
  memory.textContent = "";
  $("explore-final").textContent = "";
  if (!view) return;
  $("explore-back").disabled = view.position === 0;
  $("explore-forward").disabled = view.position >= view.length;
  memory.textContent = "memory: " + view.state.memory.map((m) => `${m.location}=${m.value}`).join("  ");
  for (const t of view.state.threads) {
    tbody.append(el("tr", {},
      el("td", { text: t.name }), el("td", { text: t.at }),
      el("td", { text: t.registers.map((r) => `${r.name}=${r.value}`).join(" ") || "-" }),
      el("td", { text: t.pending.join(", ") || "-" })));
  }
  if (view.status === "final") {
    const f = view.final;
    $("explore-final").textContent = `final state ${f.state} — ${f.satisfies ? "satisfies" : "does not satisfy"} ${f.condition}`;
  } else if (view.status !== "running") {
    $("explore-final").textContent = view.status === "blocked"
      ? "no transition is enabled: this path is blocked (an assume failed or a lock is never freed)"
      : "a guess this path went on with proved wrong: the path never happens";
  }
  for (const tr of view.transitions) {
    const button = el("button", { class: tr.out_of_order ? "out-of-order" : "", text: tr.label });
    button.addEventListener("click", () => move("step", { index: tr.index }));
    const why = el("ul");
    for (const line of tr.enabled_by) why.append(el("li", { text: line }));
    list.append(el("li", {}, button, why));
  }
  view.history.forEach((label, i) => {
    const cls = i + 1 === view.position ? "current" : i + 1 > view.position ? "later" : "";
    history.append(el("li", { class: cls, text: label }));
  });
}

export function setupExplorer() {
  $("explore-back").addEventListener("click", () => move("back"));
  $("explore-forward").addEventListener("click", () => move("forward"));
  $("explore-outcome").addEventListener("click", () => move("outcome"));
  render(null);
}

// The suite tab: a bundled suite under chosen models (none ticked: the suite's own), the verdict
// matrix filled live from server-sent events, cells checked against the suite's expected
// verdicts; a cell opens its test and model and draws it; the CLI's reports to download.
import { $, clear, el, showErrors } from "./dom.js";

let rows = [];

export function setupSuite(suites, models, openCell) {
  const pick = $("suite-run-pick");
  for (const s of suites) pick.append(el("option", { value: s.suite, text: `${s.suite} (${s.count})` }));
  pick.value = "classic";
  const box = clear($("suite-models"));
  for (const m of models) {
    const input = el("input", { type: "checkbox", value: m.name });
    input.checked = ["sc", "tso"].includes(m.name);
    box.append(el("label", {}, input, ` ${m.name} `));
  }
  $("suite-run").addEventListener("click", () => runSuite(openCell));
}

function runSuite(openCell) {
  const models = [...$("suite-models").querySelectorAll("input:checked")].map((i) => i.value);
  const params = new URLSearchParams({ suite: $("suite-run-pick").value });
  for (const m of models) params.append("model", m);
  const table = clear($("suite-matrix"));
  const reports = clear($("suite-reports"));
  showErrors($("suite-errors"), []);
  $("suite-progress").textContent = "";
  $("suite-run").disabled = true;
  let cells = new Map(), done = 0, total = 0;
  const source = new EventSource(`/api/suite?${params}`);
  const finish = () => { source.close(); $("suite-run").disabled = false; };
  source.addEventListener("start", (ev) => {
    const d = JSON.parse(ev.data);
    total = d.tests.length * d.models.length;
    const head = el("tr", {}, el("th", { text: "test" }));
    for (const m of d.models) head.append(el("th", { text: m }));
    table.append(head);
    for (const t of d.tests) {
      const tr = el("tr", {}, el("th", { text: t.key }));
      for (const m of d.models) {
        const td = el("td", { text: "…" });
        td.addEventListener("click", () => { if (td.dataset.verdict) openCell(t.name, m); });
        tr.append(td);
        cells.set(`${t.key}\n${m}`, td);
      }
      table.append(tr);
    }
    if (d.cut) showErrors($("suite-errors"), [{ text: `only the first ${d.tests.length} tests run here; mmdsl suite runs them all` }]);
  });
  source.addEventListener("cell", (ev) => {
    const d = JSON.parse(ev.data);
    const td = cells.get(`${d.test}\n${d.model}`);
    if (!td) return;
    td.textContent = d.text;
    td.className = d.status === "ok" ? d.verdict : "error";
    if (d.status === "ok") td.dataset.verdict = d.verdict;
    if (d.message) td.title = d.message;
    $("suite-progress").textContent = `${++done} / ${total}`;
  });
  source.addEventListener("done", (ev) => {
    const d = JSON.parse(ev.data);
    for (const o of d.outcomes) {
      const td = cells.get(`${o.test}\n${o.model}`);
      if (!td) continue;
      if (o.outcome === "mismatch") {
        td.classList.add("mismatch");
        td.title = `expected ${o.expected}`;
      } else if (o.expected) {
        td.title = `expected ${o.expected}: held`;
      }
    }
    const counts = Object.entries(d.counts).map(([k, v]) => `${v} ${k}`).join(", ");
    $("suite-progress").textContent = `${done} / ${total} — ${counts} (${d.wall} s)`;
    reports.append("reports: ");
    for (const fmt of ["html", "csv", "json", "md"]) {
      const a = el("a", { text: fmt.toUpperCase(), href: `/api/suite/${encodeURIComponent(d.run)}/report?format=${fmt}`,
                          download: `suite-report.${fmt}` });
      reports.append(a, " ");
    }
    finish();
  });
  source.addEventListener("failed", (ev) => { showErrors($("suite-errors"), JSON.parse(ev.data).errors); finish(); });
  source.onerror = () => {
    if (source.readyState !== EventSource.CLOSED) showErrors($("suite-errors"), [{ text: "the suite run was cut off" }]);
    finish();
  };
}

// The suite tab: a bundled suite under chosen models, the verdict matrix filled live from
// server-sent events; a cell opens its test and model in the editors and draws it.
import { $, clear, downloadLink, el, showErrors } from "./dom.js";

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
  $("suite-csv").addEventListener("click", () => exportAs("csv"));
  $("suite-json").addEventListener("click", () => exportAs("json"));
}

function runSuite(openCell) {
  const models = [...$("suite-models").querySelectorAll("input:checked")].map((i) => i.value);
  const params = new URLSearchParams({ suite: $("suite-run-pick").value });
  for (const m of models) params.append("model", m);
  const table = clear($("suite-matrix"));
  showErrors($("suite-errors"), []);
  $("suite-run").disabled = true;
  $("suite-csv").disabled = $("suite-json").disabled = true;
  rows = [];
  let cells = [], done = 0, total = 0, names = [], modelNames = [];
  const source = new EventSource(`/api/suite?${params}`);
  const finish = () => { source.close(); $("suite-run").disabled = false; $("suite-csv").disabled = $("suite-json").disabled = !rows.length; };
  source.addEventListener("start", (ev) => {
    const d = JSON.parse(ev.data);
    names = d.names; modelNames = d.models; total = d.tests.length * d.models.length;
    const head = el("tr", {}, el("th", { text: "test" }));
    for (const m of d.models) head.append(el("th", { text: m }));
    table.append(head);
    cells = d.tests.map((label, i) => {
      const tr = el("tr", {}, el("th", { text: label }));
      const row = d.models.map((m) => {
        const td = el("td", { text: "…" });
        td.addEventListener("click", () => { if (td.dataset.verdict) openCell(names[i], m); });
        tr.append(td);
        return td;
      });
      table.append(tr);
      rows.push({ test: label, verdicts: {} });
      return row;
    });
    if (d.cut) showErrors($("suite-errors"), [{ text: `only the first ${d.tests.length} tests are run here; use mmdsl suite for the whole suite` }]);
  });
  source.addEventListener("verdict", (ev) => {
    const d = JSON.parse(ev.data);
    const td = cells[d.test][modelNames.indexOf(d.model)];
    td.textContent = d.verdict === "error" ? "error" : d.verdict;
    td.className = d.verdict;
    td.dataset.verdict = d.verdict;
    if (d.error) td.title = d.error;
    rows[d.test].verdicts[d.model] = d.verdict;
    $("suite-progress").textContent = `${++done} / ${total}`;
  });
  source.addEventListener("failed", (ev) => showErrors($("suite-errors"), JSON.parse(ev.data).errors));
  source.addEventListener("end", finish);
  source.onerror = () => {
    if (source.readyState !== EventSource.CLOSED) showErrors($("suite-errors"), [{ text: "the suite run was cut off" }]);
    finish();
  };
}

function exportAs(kind) {
  const models = rows.length ? Object.keys(rows[0].verdicts) : [];
  let blob;
  if (kind === "json") {
    blob = new Blob([JSON.stringify(rows, null, 2)], { type: "application/json" });
  } else {
    const q = (s) => `"${String(s).replace(/"/g, '""')}"`;
    const lines = [["test", ...models].map(q).join(",")];
    for (const r of rows) lines.push([r.test, ...models.map((m) => r.verdicts[m] || "")].map(q).join(","));
    blob = new Blob([lines.join("\n") + "\n"], { type: "text/csv" });
  }
  downloadLink("", `verdicts.${kind}`, blob).click();
}

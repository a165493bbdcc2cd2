// The workbench page: pickers, editors with a debounced model check, run / draw / fences / explore,
// and the page's state shared as a URL. Plain ES modules, no build step.
import { $, api, apiBlob, attachGutter, cancelWork, clear, downloadLink, el, showErrors, svgNode } from "./dom.js";
import { setupExplorer, startExploration } from "./explorer.js";
import { encodeState, stateFromHash } from "./share.js";
import { setupSuite } from "./suite.js";

const CHECK_DELAY_MS = 350;
let show = "witness";
let gutters = {};

function inputs() {
  // the typed texts; a name labels them (and lets the server use the bundled file when unchanged)
  return {
    test_text: $("test-text").value, test_name: $("test-label").textContent || "test.litmus",
    model_text: $("model-text").value, model_name: $("model-label").textContent || "model.mm",
  };
}

function selectTab(name) {
  for (const b of document.querySelectorAll(".tabs button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.id === `tab-${name}`);
}

// ---- pickers ------------------------------------------------------------------------
async function loadSuite(suite, wanted) {
  const pick = clear($("test-pick"));
  const { tests } = await api(`/api/tests?suite=${encodeURIComponent(suite)}`);
  for (const name of tests) pick.append(el("option", { value: name, text: name.slice(suite.length + 1) }));
  if (wanted && tests.includes(wanted)) pick.value = wanted;
}

async function loadTest(name) {
  const { text } = await api(`/api/tests/${name.split("/").map(encodeURIComponent).join("/")}`);
  $("test-text").value = text;
  $("test-label").textContent = name;
  gutters.test.mark([]);
}

async function loadModel(name) {
  const { text } = await api(`/api/models/${encodeURIComponent(name)}`);
  $("model-text").value = text;
  gutters.model.render();
  $("model-label").textContent = `${name}.mm`;
  checkModel();
}

// ---- the model check, as one types ----------------------------------------------------
let checkTimer = null;
let checkSeq = 0;
function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkModel, CHECK_DELAY_MS);
}

async function checkModel() {
  const seq = ++checkSeq;
  const { model_text, model_name } = inputs();
  try {
    const res = await api("/api/check-model", { model_text, model_name });
    if (seq !== checkSeq) return; // a newer check is on its way
    showErrors($("model-errors"), res.errors, $("model-text"), gutters.model);
    $("model-text").classList.toggle("has-errors", !res.ok);
    $("model-status").textContent = res.ok ? `ok: model ${res.name}` : `${res.errors.length} error(s)`;
    $("model-status").className = `status ${res.ok ? "ok" : "bad"}`;
  } catch (err) {
    if (seq === checkSeq) showErrors($("model-errors"), err.errors || [{ text: String(err) }], $("model-text"), gutters.model);
  }
}

// ---- run, draw, fences ----------------------------------------------------------------
async function run() {
  selectTab("result");
  const payload = { ...inputs(), engine: $("engine").value };
  showErrors($("run-errors"), [], null, gutters.test);
  for (const id of ["herd", "why", "verdict-line"]) $(id).textContent = "";
  $("verdict").textContent = "";
  $("verdict").className = "verdict";
  try {
    const res = await api("/api/run", payload);
    $("verdict").textContent = res.verdict;
    $("verdict").className = `verdict ${res.verdict}`;
    $("verdict-line").textContent = `${res.test} under ${res.model}`;
    $("herd").textContent = res.herd;
    $("why").textContent = res.why + (res.warnings.length ? "\n" + res.warnings.join("\n") : "");
    show = res.verdict === "Forbidden" ? "forbidden" : "witness";
    await draw();
  } catch (err) {
    const errors = err.errors || [{ text: String(err) }];
    const inTest = errors.filter((e) => e.file && e.file === testFile());
    showErrors($("run-errors"), errors, inTest.length ? $("test-text") : null);
    gutters.test.mark(inTest.map((e) => e.line).filter(Boolean));
  }
}

function testFile() {
  return ($("test-label").textContent || "test.litmus").split("/").pop();
}

async function draw() {
  for (const b of document.querySelectorAll(".subtabs button")) b.classList.toggle("active", b.dataset.show === show);
  const payload = { ...inputs(), show, style: $("paper-style").checked ? "paper" : "screen",
                    fences: $("draw-fences").checked };
  const box = clear($("diagrams"));
  const messages = clear($("draw-messages"));
  try {
    const res = await api("/api/draw", payload);
    for (const m of res.messages) messages.append(el("li", { text: m }));
    res.diagrams.forEach((d, index) => {
      const card = el("div", { class: "diagram" }, el("h3", { text: `${d.stem} (${d.status})` }));
      if (d.svg) card.append(svgNode(d.svg));
      const links = el("div", { class: "downloads" });
      if (d.svg) links.append(downloadLink("SVG", `${d.stem}.svg`, new Blob([d.svg], { type: "image/svg+xml" })));
      links.append(downloadLink("DOT", `${d.stem}.dot`, new Blob([d.dot], { type: "text/vnd.graphviz" })));
      const pdf = el("button", { text: "PDF" });
      pdf.addEventListener("click", async () => {
        try {
          downloadLink("", `${d.stem}.pdf`, await apiBlob("/api/draw?format=pdf", { ...payload, index })).click();
        } catch (err) { messages.append(el("li", { text: err.message })); }
      });
      links.append(pdf);
      card.append(links);
      box.append(card);
    });
  } catch (err) {
    showErrors(messages, err.errors || [{ text: String(err) }]);
  }
}

async function fences() {
  selectTab("fences");
  showErrors($("fences-errors"), []);
  $("fences-text").textContent = "";
  $("fenced-box").hidden = true;
  try {
    const res = await api("/api/fences", inputs());
    $("fences-text").textContent = res.text + (res.warnings.length ? "\n" + res.warnings.join("\n") : "");
    if (res.fenced_test) {
      $("fenced-test").textContent = res.fenced_test;
      $("fenced-box").hidden = false;
    }
  } catch (err) {
    showErrors($("fences-errors"), err.errors || [{ text: String(err) }]);
  }
}

// ---- sharing ---------------------------------------------------------------------------
function share() {
  const s = inputs();
  const hash = "#s=" + encodeState({ t: s.test_text, m: s.model_text, tn: s.test_name, mn: s.model_name });
  history.replaceState(null, "", hash);
  const out = $("share-url");
  out.value = location.href;
  out.hidden = false;
  out.select();
  navigator.clipboard?.writeText(location.href).catch(() => {});
}

function restore(state) {
  $("test-text").value = state.t;
  $("model-text").value = state.m;
  $("test-label").textContent = state.tn;
  $("model-label").textContent = state.mn;
  gutters.test.render();
  checkModel();
}

// ---- start -----------------------------------------------------------------------------
async function main() {
  for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => selectTab(b.dataset.tab));
  for (const b of document.querySelectorAll(".subtabs button")) {
    b.addEventListener("click", () => { show = b.dataset.show; draw(); });
  }
  $("paper-style").addEventListener("change", draw);
  $("draw-fences").addEventListener("change", draw);
  $("run").addEventListener("click", run);
  $("fences-button").addEventListener("click", fences);
  $("explore-button").addEventListener("click", () => { selectTab("explorer"); startExploration(inputs()); });
  $("share").addEventListener("click", share);
  $("cancel").addEventListener("click", cancelWork);
  $("use-fenced").addEventListener("click", () => {
    $("test-text").value = $("fenced-test").textContent;
    $("test-label").textContent = "fenced.litmus";
    gutters.test.mark([]);
  });
  $("show-fenced").addEventListener("click", () => {
    $("draw-fences").checked = true;
    show = "witness";
    selectTab("diagrams");
    draw();
  });
  $("model-text").addEventListener("input", scheduleCheck);
  $("suite-pick").addEventListener("change", async () => {
    await loadSuite($("suite-pick").value);
    if ($("test-pick").value) await loadTest($("test-pick").value);
  });
  $("test-pick").addEventListener("change", () => loadTest($("test-pick").value));
  $("model-pick").addEventListener("change", () => loadModel($("model-pick").value));
  setupExplorer();
  gutters = { test: attachGutter($("test-text"), $("test-gutter")), model: attachGutter($("model-text"), $("model-gutter")) };

  const [{ suites }, { models }] = await Promise.all([api("/api/tests"), api("/api/models")]);
  for (const s of suites) if (s.count) $("suite-pick").append(el("option", { value: s.suite, text: s.suite }));
  for (const m of models) $("model-pick").append(el("option", { value: m.name, text: m.name, title: m.title }));
  $("suite-pick").value = "classic";
  $("model-pick").value = "tso";
  await loadSuite("classic", "classic/SB.litmus");
  setupSuite(suites.filter((s) => s.count), models, async (test, model) => {
    const suite = test.split("/")[0];
    $("suite-pick").value = suite;
    await loadSuite(suite, test);
    $("model-pick").value = model;
    await Promise.all([loadTest(test), loadModel(model)]);
    selectTab("diagrams");
    await run();
    selectTab("diagrams");
  });
  const shared = stateFromHash(location.hash);
  if (shared) {
    restore(shared);
  } else {
    await Promise.all([loadTest($("test-pick").value), loadModel("tso")]);
  }
  document.body.dataset.ready = "true";
}

main().catch((err) => { $("busy").textContent = `the page could not start: ${err.message}`; });

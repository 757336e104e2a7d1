// The colexpr playground. Plain JavaScript, no build step: the same file
// runs against `colexpr serve` (POST api/explain) and against the
// WebAssembly build (colexpr.wasm, which registers globalThis.colexpr).
// Everything it shows is the JSON of playground.Explain.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { where: "", select: "", expr: 0, step: 0, tree: "bound" };
let backend = null;
let last = null; // the last Response
let seq = 0; // request sequence, so a late answer never overwrites a newer one

// ---- backends -------------------------------------------------------------

const serverBackend = {
  kind: "server",
  async explain(req) {
    const r = await fetch("api/explain", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req) });
    const body = await r.json();
    if (!r.ok) throw new Error(body.error || r.statusText);
    return body;
  },
};

// memFS is the file system Go's syscall/js sees in the browser: the files
// dropped on the page, by path, and the copies Go writes of them
// (playground.Open copies a CSV file to an Arrow IPC file in a temporary
// directory). wasm_exec.js keeps a file system that is already defined,
// so this one is installed before it. A file is { buf, size }: buf grows
// as Go writes.
function installMemFS() {
  const files = new Map();
  const dirs = new Set(["/", "/tmp"]);
  const fds = new Map();
  let nextFD = 100;
  const C = { O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536 };
  const err = (code) => { const e = new Error(code); e.code = code; return e; };
  const statOf = (f) => {
    const dir = f === null;
    const size = dir ? 0 : f.size;
    return {
      dev: 0, ino: 0, mode: dir ? 0o40755 : 0o100644, nlink: 1, uid: 0, gid: 0, rdev: 0, size,
      blksize: 4096, blocks: Math.ceil(size / 512), atimeMs: 0, mtimeMs: 0, ctimeMs: 0,
      isDirectory: () => dir,
    };
  };
  const children = (dir) => {
    const pre = dir.endsWith("/") ? dir : dir + "/";
    const names = new Set();
    for (const p of [...files.keys(), ...dirs]) {
      if (p !== dir && p.startsWith(pre) && !p.slice(pre.length).includes("/")) names.add(p.slice(pre.length));
    }
    return [...names];
  };
  const decoder = new TextDecoder("utf-8");
  let out = "";
  const enosys = (...args) => args[args.length - 1](err("ENOSYS"));
  globalThis.fs = {
    constants: C,
    writeSync(fd, buf) {
      out += decoder.decode(buf);
      const nl = out.lastIndexOf("\n");
      if (nl !== -1) { console.log(out.substring(0, nl)); out = out.substring(nl + 1); }
      return buf.length;
    },
    write(fd, buf, offset, length, position, cb) {
      const data = buf.subarray(offset, offset + length);
      if (fd === 1 || fd === 2) { cb(null, this.writeSync(fd, data)); return; }
      const f = fds.get(fd);
      if (!f || f.file === null || !f.writable) { cb(err("EBADF")); return; }
      const at = position === null || position === undefined ? f.pos : position;
      const file = f.file;
      if (at + length > file.buf.length) {
        const grown = new Uint8Array(Math.max(at + length, 2 * file.buf.length, 4096));
        grown.set(file.buf.subarray(0, file.size));
        file.buf = grown;
      }
      file.buf.set(data, at);
      file.size = Math.max(file.size, at + length);
      if (position === null || position === undefined) f.pos += length;
      cb(null, length);
    },
    open(path, flags, mode, cb) {
      if (dirs.has(path)) { const fd = nextFD++; fds.set(fd, { file: null, path, pos: 0 }); cb(null, fd); return; }
      let file = files.get(path);
      if (file && (flags & C.O_CREAT) && (flags & C.O_EXCL)) { cb(err("EEXIST")); return; }
      if (!file) {
        if (!(flags & C.O_CREAT)) { cb(err("ENOENT")); return; }
        file = { buf: new Uint8Array(0), size: 0 };
        files.set(path, file);
      }
      if (flags & C.O_TRUNC) file.size = 0;
      const fd = nextFD++;
      fds.set(fd, { file, path, pos: 0, writable: (flags & 3) !== 0 });
      cb(null, fd);
    },
    close(fd, cb) { fds.delete(fd); cb(null); },
    fstat(fd, cb) { const f = fds.get(fd); f ? cb(null, statOf(f.file)) : cb(err("EBADF")); },
    stat(path, cb) {
      if (dirs.has(path)) cb(null, statOf(null));
      else if (files.has(path)) cb(null, statOf(files.get(path)));
      else cb(err("ENOENT"));
    },
    lstat(path, cb) { this.stat(path, cb); },
    read(fd, buf, offset, length, position, cb) {
      const f = fds.get(fd);
      if (!f) { cb(err("EBADF")); return; }
      if (f.file === null) { cb(err("EISDIR")); return; }
      const at = position === null || position === undefined ? f.pos : position;
      const n = Math.max(0, Math.min(length, f.file.size - at));
      buf.set(f.file.buf.subarray(at, at + n), offset);
      if (position === null || position === undefined) f.pos += n;
      cb(null, n);
    },
    readdir(path, cb) { dirs.has(path) ? cb(null, children(path)) : cb(err("ENOENT")); },
    mkdir(path, perm, cb) {
      if (dirs.has(path) || files.has(path)) { cb(err("EEXIST")); return; }
      dirs.add(path);
      cb(null);
    },
    unlink(path, cb) {
      if (dirs.has(path)) { cb(err("EISDIR")); return; }
      files.delete(path) ? cb(null) : cb(err("ENOENT"));
    },
    rmdir(path, cb) {
      if (!dirs.has(path)) { cb(err("ENOENT")); return; }
      if (children(path).length) { cb(err("ENOTEMPTY")); return; }
      dirs.delete(path);
      cb(null);
    },
    fsync(fd, cb) { cb(null); },
    chmod: enosys, chown: enosys, fchmod: enosys, fchown: enosys, ftruncate: enosys, lchown: enosys,
    link: enosys, readlink: enosys, rename: enosys, symlink: enosys, truncate: enosys, utimes: enosys,
  };
  return {
    // add puts a dropped file's bytes at path.
    add(path, data) { files.set(path, { buf: data, size: data.length }); },
  };
}

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = src; s.onload = resolve; s.onerror = () => reject(new Error("cannot load " + src));
    document.head.appendChild(s);
  });
}

async function wasmBackend() {
  const files = installMemFS();
  await loadScript("wasm_exec.js");
  const go = new Go();
  const ready = new Promise((resolve) => { globalThis.colexprReady = resolve; });
  const { instance } = await WebAssembly.instantiateStreaming(fetch("colexpr.wasm"), go.importObject);
  go.run(instance);
  await ready;
  const call = async (p) => {
    const body = JSON.parse(await p);
    if (body.error) throw new Error(body.error);
    return body;
  };
  return {
    kind: "wasm",
    explain: (req) => call(globalThis.colexpr.explain(JSON.stringify(req))),
    async open(file) {
      const data = new Uint8Array(await file.arrayBuffer());
      const path = "/dropped/" + file.name.replace(/[^\w.\-]/g, "_");
      files.add(path, data);
      return call(globalThis.colexpr.open(path, file.name));
    },
  };
}

async function pickBackend() {
  try {
    const r = await fetch("api/table");
    if (r.ok && (r.headers.get("Content-Type") || "").includes("json")) return serverBackend;
  } catch (e) { /* no server: the static build */ }
  return wasmBackend();
}

// ---- URL state -----------------------------------------------------------

function readURL() {
  const p = new URLSearchParams(location.hash.slice(1));
  state.where = p.get("where") ?? "l_quantity < 24 AND l_discount BETWEEN 0.05 AND 0.07";
  state.select = p.get("select") ?? "l_orderkey, l_extendedprice * (1 - l_discount) AS revenue";
  state.expr = +p.get("expr") || 0;
  state.step = +p.get("step") || 0;
  state.tree = p.get("tree") === "optimized" ? "optimized" : "bound";
}

function writeURL() {
  const p = new URLSearchParams();
  p.set("where", state.where);
  p.set("select", state.select);
  if (state.expr) p.set("expr", state.expr);
  if (state.step) p.set("step", state.step);
  if (state.tree !== "bound") p.set("tree", state.tree);
  history.replaceState(null, "", "#" + p.toString());
}

// ---- rendering -----------------------------------------------------------

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k);
  return e;
}

// shadow draws the text of a field behind it with each error's span
// underlined: the textarea is transparent over it, so the underline sits
// under the very characters.
function drawShadow(field, errors) {
  const text = $(field).value;
  const spans = errors.filter((e) => e.field === field && e.start >= 0).sort((a, b) => a.start - b.start);
  const sh = $(field + "-shadow");
  sh.textContent = "";
  let at = 0;
  for (const e of spans) {
    if (e.start < at) continue;
    sh.append(text.slice(at, e.start));
    const m = el("mark", { class: e.end > e.start ? "" : "empty", "data-start": e.start, "data-end": e.end }, text.slice(e.start, e.end));
    sh.append(m);
    at = Math.max(e.end, e.start);
  }
  sh.append(text.slice(at) + "\n");
}

function drawErrors(errors) {
  const box = $("errors");
  box.textContent = "";
  for (const e of errors) {
    const d = el("div", { class: "error", "data-field": e.field, "data-start": e.start, "data-line": e.line, "data-column": e.column }, e.message);
    if (e.line > 0) {
      const line = $(e.field).value.split("\n")[e.line - 1] ?? "";
      d.append(el("pre", { class: "caret" }, line + "\n" + " ".repeat(e.column - 1) + "^"));
    }
    box.append(d);
  }
  for (const f of ["where", "select"]) {
    drawShadow(f, errors);
    $(f).setAttribute("aria-invalid", errors.some((e) => e.field === f) ? "true" : "false");
  }
}

function drawSchema(t) {
  $("table-name").textContent = t.name + (t.rowGroups >= 0 ? ` · ${t.rowGroups} row groups` : "");
  const rows = t.columns.map((c) => el("tr", {}, el("td", {}, c.name), el("td", {}, c.dtype)));
  for (const c of t.leftOut || []) rows.push(el("tr", { class: "note" }, el("td", {}, c.name), el("td", {}, "left out: " + c.why)));
  $("schema").replaceChildren(el("div", { class: "scroll" }, el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "column"), el("th", {}, "dtype"))), el("tbody", {}, rows))));
}

// treeList draws a Node as nested lists. hl is the path of the subtree to
// highlight, or null.
function treeList(node, hl) {
  const li = (n, path) => {
    const label = el("span", { class: "node " + n.kind, "data-path": path.join(".") },
      n.kind === "lambda" ? "λ " : "", el("b", {}, n.label), " ", el("span", { class: "dt" }, ":: " + n.dtype));
    const item = el("li", {}, label);
    if (n.kind === "lambda" && n.params) {
      label.append(el("span", { class: "frame" }, "frame (" + n.params.map((p) => p.name + ": " + p.dtype).join(", ") + ")"));
    }
    if (n.kind === "var") label.append(el("span", { class: "frame" }, n.frame ? `frame ${n.frame} out` : "scope"));
    if (hl && hl.length === path.length && hl.every((v, i) => v === path[i])) item.classList.add("hl");
    const kids = (n.children || []).map((c, i) => li(c, path.concat(i)));
    if (n.leftOut) kids.push(el("li", { class: "leftout" }, `… ${n.leftOut} more nodes`));
    if (kids.length) item.append(el("ul", {}, kids));
    return item;
  };
  return el("ul", { role: "tree" }, li(node, []));
}

// replace is tree with the node at path replaced by sub, the nodes above
// copied: how a rewrite step changes the tree (optimize.Trace.Replay).
function replace(tree, path, sub) {
  if (path.length === 0) return sub;
  const copy = Object.assign({}, tree);
  copy.children = tree.children.slice();
  copy.children[path[0]] = replace(tree.children[path[0]], path.slice(1), sub);
  return copy;
}

function treeBefore(ex, k) {
  let t = ex.bound;
  for (let i = 0; i < k; i++) {
    const s = ex.trace[i];
    if (s.kind === "applied" && hasPath(t, s.path)) t = replace(t, s.path, s.replacement);
  }
  return t;
}

function hasPath(t, path) {
  for (const i of path) { if (!t.children || !t.children[i]) return false; t = t.children[i]; }
  return true;
}

// keepFocus redraws box with draw; when the focus was on one of its
// buttons, it moves to the button drawn as current, so that a keyboard
// user does not lose their place to the redraw.
function keepFocus(box, draw) {
  const had = box.contains(document.activeElement);
  draw();
  if (had) {
    const cur = box.querySelector('[aria-current="true"]');
    if (cur) cur.focus();
  }
}

function drawExprTabs(resp) {
  const nav = $("exprs");
  keepFocus(nav, () => nav.replaceChildren(...resp.exprs.map((ex, i) => el("button", {
    type: "button", "aria-current": i === state.expr ? "true" : "false",
    onclick: () => { state.expr = i; state.step = 0; writeURL(); drawExpr(); },
  }, ex.what + (ex.name && ex.name !== ex.text ? ` (${ex.name})` : "")))));
}

function drawExpr() {
  const resp = last;
  drawExprTabs(resp);
  const ex = resp.exprs[state.expr];
  if (!ex) {
    for (const id of ["stages", "tree", "steps", "step-view", "partitions", "falsifier"]) $(id).replaceChildren();
    $("step-label").textContent = "";
    return;
  }
  $("stages").replaceChildren(
    el("dt", {}, "text"), el("dd", {}, ex.text),
    el("dt", {}, "dtype"), el("dd", {}, ex.dtype),
    el("dt", {}, "parsed"), el("dd", {}, ex.parsed),
    el("dt", {}, "coerced"), el("dd", {}, ex.coerced),
    el("dt", {}, "optimized"), el("dd", {}, ex.optimized),
    el("dt", {}, "reads"), el("dd", {}, ex.reads.join(", ") || "(nothing)"));
  $("show-bound").setAttribute("aria-pressed", state.tree === "bound");
  $("show-optimized").setAttribute("aria-pressed", state.tree === "optimized");
  $("tree-panel").querySelector("h2").textContent = state.tree + " tree";
  $("tree").replaceChildren(treeList(state.tree === "bound" ? ex.bound : ex.optimizedTree, null));
  drawTrace(ex);
  const parts = $("partitions");
  if (ex.partitionError) parts.replaceChildren(el("p", { class: "note" }, "none: " + ex.partitionError));
  else parts.replaceChildren(el("dl", {},
    (ex.partitions || []).flatMap((p) => [el("dt", {}, p.field), el("dd", {}, p.expr + "  → $" + p.var)]),
    el("dt", {}, "root"), el("dd", {}, ex.partitionRoot)));
  drawFalsifier(ex, resp.rowGroups);
}

function drawTrace(ex) {
  const n = ex.trace.length;
  if (state.step >= n) state.step = Math.max(0, n - 1);
  const focused = document.activeElement;
  $("prev").disabled = state.step <= 0;
  $("next").disabled = state.step >= n - 1;
  // A disabled button loses the focus: give it to the other one (or the
  // panel), where the arrows still step.
  if ((focused === $("prev") || focused === $("next")) && focused.disabled) {
    const other = focused === $("prev") ? $("next") : $("prev");
    (other.disabled ? $("trace-panel") : other).focus();
  }
  $("step-label").textContent = n ? `step ${state.step + 1} of ${n}${ex.traceLeftOut ? ` (+${ex.traceLeftOut} not shown)` : ""}` : "no rewrites";
  keepFocus($("steps"), () => $("steps").replaceChildren(...ex.trace.map((s, i) => el("li", { class: s.kind === "applied" ? "" : "problem" },
    el("button", { type: "button", "aria-current": i === state.step ? "true" : "false", onclick: () => goStep(i) },
      s.rule + (s.kind === "applied" ? "" : ` (${s.kind})`))))));
  if (!n) { $("step-view").replaceChildren(el("p", { class: "note" }, "The optimizer changed nothing.")); return; }
  const s = ex.trace[state.step];
  const before = treeBefore(ex, state.step);
  const after = s.kind === "applied" && hasPath(before, s.path) ? replace(before, s.path, s.replacement) : before;
  $("step-view").replaceChildren(
    el("p", { class: "step-text" }, el("b", { class: "rule" }, s.rule), s.reason ? " — " + s.reason : "", el("br"),
      "before: ", el("code", {}, s.before), el("br"), "after:  ", el("code", {}, s.after)),
    el("h3", { class: "note" }, "tree before (replaced subtree highlighted)"),
    el("div", { class: "tree", id: "step-before" }, treeList(before, s.path)),
    el("h3", { class: "note" }, "tree after"),
    el("div", { class: "tree", id: "step-after" }, treeList(after, s.path)));
  const cur = $("steps").querySelector('[aria-current="true"]');
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
}

function goStep(i) {
  const ex = last && last.exprs[state.expr];
  if (!ex || !ex.trace.length) return;
  state.step = Math.max(0, Math.min(ex.trace.length - 1, i));
  writeURL();
  drawTrace(ex);
}

function drawFalsifier(ex, rg) {
  const box = $("falsifier");
  const f = ex.falsifier;
  if (!f) { box.replaceChildren(el("p", { class: "note" }, ex.field === "where" ? "" : "Only the filter (where) has a falsifier.")); return; }
  const kids = [];
  if (f.expr) kids.push(el("p", {}, el("code", { id: "falsifier-expr" }, f.expr)));
  if (f.note) kids.push(el("p", { class: "note" }, f.note));
  if (f.stats) kids.push(el("p", { class: "note" }, "statistics: ", el("code", {}, f.stats)));
  for (const p of f.probes || []) kids.push(el("p", { class: "note" }, p));
  if (rg) {
    kids.push(el("p", { id: "row-groups" }, `row groups: read ${rg.read.length}, skipped ${rg.skipped.length} of ${rg.total}`));
    const all = [];
    for (let i = 0; i < rg.total && i < 2000; i++) {
      const read = rg.read.includes(i);
      all.push(el("span", { class: "rg " + (read ? "read" : "skipped"), title: read ? "read" : "skipped" }, String(i)));
    }
    kids.push(el("div", {}, all));
  } else {
    kids.push(el("p", { class: "note" }, "The table is not a Parquet file: it has no row groups to skip."));
  }
  box.replaceChildren(...kids);
}

function drawRows(rows) {
  if (!rows) { $("rows").replaceChildren(el("p", { class: "note" }, "No rows until the errors are fixed.")); return; }
  const numeric = rows.columns.map((c) => /^(u?i\d+|f\d+|decimal)/.test(c.dtype));
  const head = el("tr", {}, rows.columns.map((c) => el("th", {}, c.name, el("small", {}, c.dtype))));
  const body = rows.values.map((r) => el("tr", {}, r.map((v, j) => v === null
    ? el("td", { class: "null" }, "NULL") : el("td", { class: numeric[j] ? "num" : "" }, v))));
  const n = rows.values.length;
  $("rows").replaceChildren(el("table", { id: "rows-table" }, el("thead", {}, head), el("tbody", {}, body)),
    el("p", { class: "note" }, n === 0 ? "no rows" : `first ${n} row${n === 1 ? "" : "s"}${rows.more ? " (more follow)" : ""}`));
}

function render(resp) {
  last = resp;
  drawSchema(resp.table);
  drawErrors(resp.errors || []);
  if (state.expr >= resp.exprs.length) state.expr = 0;
  drawExpr();
  drawRows(resp.rows);
}

// ---- running -------------------------------------------------------------

// The body is aria-busy from a keystroke until the answer to the text
// as it stands is drawn: the time a request waits to be sent (a pause in
// the typing) and the time it takes.
let timer = null;
function busy(on) {
  if (on) document.body.setAttribute("aria-busy", "true");
  else document.body.removeAttribute("aria-busy");
}

async function run() {
  clearTimeout(timer);
  timer = null;
  busy(true);
  const my = ++seq;
  const t0 = performance.now();
  let resp;
  try {
    resp = await backend.explain({ where: state.where, select: state.select });
  } catch (e) {
    if (my === seq) {
      drawErrors([{ field: "where", message: String(e.message || e), start: -1, end: -1, line: 0, column: 0 }]);
      document.body.dataset.ready = String(my);
      if (timer === null) busy(false);
    }
    return;
  }
  if (my !== seq) return;
  render(resp);
  $("timing").textContent = `explained in ${Math.round(performance.now() - t0)} ms (${backend.kind})`;
  // The load time, from the navigation's start to the first answer drawn
  // (performance.getEntriesByName("colexpr:first-answer")[0].startTime).
  if (!performance.getEntriesByName("colexpr:first-answer").length) performance.mark("colexpr:first-answer");
  document.body.dataset.ready = String(my);
  if (timer === null) busy(false);
}

function edited() {
  state.where = $("where").value;
  state.select = $("select").value;
  writeURL();
  // Redraw the underline at once (its text follows the field), then ask.
  drawShadow("where", []); drawShadow("select", []);
  clearTimeout(timer);
  busy(true);
  timer = setTimeout(run, 120);
}

async function openFile(file) {
  if (!backend.open) return;
  try {
    await backend.open(file);
    state.expr = 0; state.step = 0;
    run();
  } catch (e) {
    drawErrors([{ field: "where", message: `${file.name}: ${e.message || e}`, start: -1, end: -1, line: 0, column: 0 }]);
  }
}

async function main() {
  readURL();
  $("where").value = state.where;
  $("select").value = state.select;
  for (const f of ["where", "select"]) {
    $(f).addEventListener("input", edited);
    $(f).addEventListener("scroll", () => { $(f + "-shadow").scrollTop = $(f).scrollTop; });
    // Enter runs at once; Shift+Enter is a line break.
    $(f).addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); run(); } });
  }
  $("prev").addEventListener("click", () => goStep(state.step - 1));
  $("next").addEventListener("click", () => goStep(state.step + 1));
  $("trace-panel").addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") { goStep(state.step - 1); e.preventDefault(); }
    if (e.key === "ArrowRight") { goStep(state.step + 1); e.preventDefault(); }
  });
  $("show-bound").addEventListener("click", () => { state.tree = "bound"; writeURL(); drawExpr(); });
  $("show-optimized").addEventListener("click", () => { state.tree = "optimized"; writeURL(); drawExpr(); });
  window.addEventListener("hashchange", () => {
    const before = [state.where, state.select];
    readURL();
    if (before[0] !== state.where || before[1] !== state.select) { $("where").value = state.where; $("select").value = state.select; run(); }
    else if (last) drawExpr();
  });
  backend = await pickBackend();
  if (backend.open) {
    $("drop").classList.remove("hidden");
    $("file").addEventListener("change", (e) => {
      const f = e.target.files[0];
      e.target.value = ""; // so that choosing the same file again opens it again
      if (f) openFile(f);
    });
    $("drop").addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); $("file").click(); } });
    document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dragging"); });
    document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
    document.addEventListener("drop", (e) => {
      e.preventDefault(); document.body.classList.remove("dragging");
      if (e.dataTransfer.files[0]) openFile(e.dataTransfer.files[0]);
    });
  }
  writeURL();
  await run();
}

main();

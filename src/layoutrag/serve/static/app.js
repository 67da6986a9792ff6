/* layoutrag web UI: search, page viewer with on-page evidence, document tree, chunk browser, answers.
   Plain JS, no build step. Routes live in the URL hash:
     #/search?q=&type=&doc=&k=    #/answer?q=    #/docs
     #/doc/{doc_id}?page=N&chunk=ID&row=R&types=a,b&cell=x0,y0,x1,y1     #/chunks/{doc_id}?type=table
     #/specs?q=&where=a;b&type=     #/compare?parts=A,B
   Boxes are drawn as SVG whose viewBox is the page size in PDF points, laid over the page image. */
"use strict";

const app = document.getElementById("app");
const state = { info: null, docs: null, docMap: {}, detail: {}, hits: {} };

// ------------------------------------------------------------------ helpers
function esc(s) {
  return String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") u.set(k, v);
  const s = u.toString();
  return s ? "?" + s : "";
}
function fmt(x, d = 4) { return x == null ? "–" : Number(x).toFixed(d); }
function docName(docId) {
  const c = state.docMap[docId];
  return c ? (c.file_name || c.title || docId) : docId;
}
function viewerHref(docId, page, chunkId, row, also) {
  return "#/doc/" + encodeURIComponent(docId) + qs({ page, chunk: chunkId, row, also: also && also.length ? also.join(",") : undefined });
}
/* a hit's companions: more blocks of its page returned with it (highlighted together in the viewer);
   the rest of a unit spanning pages (same chunk id) is drawn with the hit's own chunk */
function companionIds(h) {
  return (h.companions || []).filter((c) => c.chunk_id !== h.chunk_id).map((c) => c.chunk_id);
}
function pagesOf(chunk) {
  const ps = new Set((chunk.regions && chunk.regions.length ? chunk.regions.map((r) => r.page) : [chunk.page]));
  return [...ps].sort((a, b) => a - b);
}
function regionsOf(chunk) {
  if (chunk.regions && chunk.regions.length) return chunk.regions;
  return (chunk.bboxes_pdf || []).map((b) => ({ page: chunk.page, bbox_pdf: b, label: chunk.block_type }));
}

class ApiError extends Error {
  constructor(status, msg) { super(msg); this.status = status; }
}

async function api(path) {
  let r = await fetch(path, { credentials: "same-origin" });
  if (r.status === 401) {
    const key = window.prompt("This server needs an API key (LAYOUTRAG_API_KEY):");
    if (key) {
      document.cookie = "layoutrag_key=" + encodeURIComponent(key) + "; path=/; SameSite=Strict";
      r = await fetch(path, { credentials: "same-origin" });
    }
  }
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) throw new ApiError(r.status, (body && body.error) || ("HTTP " + r.status));
  return body;
}

function showError(e, where) {
  const msg = e instanceof ApiError ? e.message : "could not reach the server";
  (where || app).insertAdjacentHTML("beforeend", `<div class="notice err">${esc(msg)}</div>`);
}

async function loadInfo() {
  if (!state.info) {
    state.info = await api("/api/info");
    const c = document.getElementById("corpus");
    c.textContent = state.info.index_ready
      ? `${state.info.n_documents} documents · ${state.info.n_chunks} chunks`
      : "no index yet";
  }
  return state.info;
}
async function loadDocs() {
  if (!state.docs) {
    state.docs = (await api("/api/documents")).documents;
    for (const d of state.docs) state.docMap[d.doc_id] = d;
  }
  return state.docs;
}
async function loadDetail(docId) {
  if (!state.detail[docId]) state.detail[docId] = await api("/api/documents/" + encodeURIComponent(docId));
  return state.detail[docId];
}
function rememberHits(hits) {
  for (const h of hits) state.hits[h.chunk_id] = h;
  try {
    const slim = {};
    for (const h of hits) slim[h.chunk_id] = { score: h.score, dense_rank: h.dense_rank, bm25_rank: h.bm25_rank, dense_score: h.dense_score, bm25_score: h.bm25_score, matched_row: h.matched_row };
    sessionStorage.setItem("layoutrag.hits", JSON.stringify(Object.assign(JSON.parse(sessionStorage.getItem("layoutrag.hits") || "{}"), slim)));
  } catch (e) { /* storage full or off: scores just are not shown in the viewer */ }
}
function hitScores(chunkId) {
  if (state.hits[chunkId]) return state.hits[chunkId];
  try { return JSON.parse(sessionStorage.getItem("layoutrag.hits") || "{}")[chunkId] || null; } catch (e) { return null; }
}

// ------------------------------------------------------------------ page rendering
/* One page: the image plus an SVG in PDF points. `boxes`: [{bbox, cls, title, href}] */
function pageFrame(docId, page, sizePt, boxes, hasPdf = true) {
  const [w, h] = sizePt || [612, 792];
  const rects = boxes.map((b) => {
    const [x0, y0, x1, y1] = b.bbox;
    const r = `<rect class="${esc(b.cls)}" x="${x0}" y="${y0}" width="${Math.max(0, x1 - x0)}" height="${Math.max(0, y1 - y0)}"` +
      (b.id ? ` data-chunk="${esc(b.id)}"` : "") + (b.row != null ? ` data-row="${b.row}"` : "") +
      `><title>${esc(b.title || "")}</title></rect>`;
    return b.href ? `<a href="${esc(b.href)}">${r}</a>` : r;
  }).join("");
  return `<div class="page-frame" data-page="${page}" data-width-pt="${w}" data-height-pt="${h}">` +
    (hasPdf ? `<img alt="page ${page}" src="/api/documents/${encodeURIComponent(docId)}/pages/${page}.png">`
      : `<div class="nopdf" style="aspect-ratio: ${w} / ${h}">no PDF stored for this document (imported chunks): boxes only</div>`) +
    `<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg">${rects}</svg></div>`;
}

function pageSize(detail, page, chunk) {
  const p = detail && detail.pages.find((x) => x.page === page);
  if (p && p.width_pt) return [p.width_pt, p.height_pt];
  if (chunk && chunk.page_size_pt) return chunk.page_size_pt;
  return null;
}

// ------------------------------------------------------------------ search
function resultCard(h, i, label) {
  const rows = h.rows || [];
  const mr = h.matched_row != null && rows[h.matched_row] ? rows[h.matched_row] : null;
  const head = (h.native_text || "").slice(0, 420);
  const pages = pagesOf(h);
  const pageText = pages.length > 1 ? `pages ${pages.join("–")}` : `page ${h.page}`;
  const ev = `<img loading="lazy" alt="evidence" src="/api/chunks/${encodeURIComponent(h.chunk_id)}/evidence.png">`;
  const href = viewerHref(h.doc_id, h.page, h.chunk_id, h.matched_row, companionIds(h));
  const comps = (h.companions || []).map((c) => c.chunk_id === h.chunk_id
    ? `<div class="companion rest" data-chunk="${esc(c.chunk_id)}">+ the rest of this ${esc(c.block_type)} on page ${pagesOf(c).join(", ")}</div>`
    : `<div class="companion" data-chunk="${esc(c.chunk_id)}">+ <span class="badge ${esc(c.block_type)}">${esc(c.block_type)}</span> ${esc((c.native_text || "").slice(0, 160))}</div>`).join("");
  return `<div class="card${h.evidence_image ? "" : " noimg"}" data-chunk="${esc(h.chunk_id)}" data-href="${esc(href)}">
    <div>
      <div class="head">
        <span class="rank">${label || "#" + (i + 1)}</span>
        <span class="badge ${esc(h.block_type)}">${esc(h.block_type)}</span>
        <a class="doc" href="${esc(href)}">${esc(docName(h.doc_id))}</a>
        <span class="muted">${pageText}</span>
      </div>
      <div class="path">${esc(h.toc_path || h.section_title || "")}</div>
      <div class="text">${esc(head)}</div>
      ${comps ? `<div class="companions" title="more blocks of this page returned with this hit">${comps}</div>` : ""}
      ${mr ? `<div class="matchrow" title="table row that matches the query">row: ${esc(mr.cells && mr.cells.length ? mr.cells.join(" | ") : mr.text)}</div>` : ""}
      <div class="scores">fused <b>${fmt(h.score)}</b> · bm25 ${h.bm25_rank ? "#" + h.bm25_rank : "–"} (${fmt(h.bm25_score, 2)}) · dense ${h.dense_rank ? "#" + h.dense_rank : "–"} (${fmt(h.dense_score, 3)}) · <span class="mono">${esc(h.chunk_id)}</span></div>
    </div>
    ${h.evidence_image ? `<div class="ev">${ev}</div>` : ""}
  </div>`;
}

function bindCards(root) {
  root.querySelectorAll(".card").forEach((el) => el.addEventListener("click", (ev) => {
    if (ev.target.closest("a")) return;
    location.hash = el.dataset.href;
  }));
}

function searchForm(params, info, docs, action) {
  const types = (info.block_types || []).map((t) => `<option ${params.type === t ? "selected" : ""}>${esc(t)}</option>`).join("");
  const docOpts = docs.map((d) => `<option value="${esc(d.doc_id)}" ${params.doc === d.doc_id ? "selected" : ""}>${esc(d.file_name || d.doc_id)}</option>`).join("");
  const examples = (info.examples || []).map((q) => `<a class="chip" href="#/${action}${qs({ q })}">${esc(q)}</a>`).join("");
  return `<form class="searchbar" id="sform" autocomplete="off">
      <input type="search" name="q" id="q" maxlength="${info.max_query_chars}" placeholder="Part number, parameter or question — English or 中文" value="${esc(params.q || "")}" autofocus>
      ${action === "search" ? `<select name="type" title="block type"><option value="">all types</option>${types}</select>
      <select name="doc" title="document"><option value="">all documents</option>${docOpts}</select>
      <input type="number" name="k" min="1" max="${info.max_top_k}" value="${esc(params.k || info.default_top_k)}" title="top k">` : ""}
      <button class="btn" type="submit">${action === "search" ? "Search" : "Ask"}</button>
    </form>
    <div class="examples"><span class="faint">Try:</span> ${examples || '<span class="faint">no examples (empty index)</span>'}</div>`;
}

function bindForm(action) {
  document.getElementById("sform").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const p = {};
    for (const [k, v] of f.entries()) if (String(v).trim()) p[k] = String(v).trim();
    location.hash = "#/" + action + qs(p);
  });
}

async function viewSearch(params) {
  const [info, docs] = await Promise.all([loadInfo(), loadDocs().catch(() => [])]);
  app.innerHTML = `<div class="narrow">${searchForm(params, info, docs, "search")}<div id="out"></div></div>`;
  bindForm("search");
  const out = document.getElementById("out");
  if (!info.index_ready) {
    out.innerHTML = `<div class="notice warn">No index in this data dir yet. Run <code>layoutrag ingest PDFS --data DIR</code> or <code>layoutrag demo</code>.</div>`;
    return;
  }
  if (!params.q) {
    out.innerHTML = `<div class="notice intro">Every hit is a <b>page region</b>: its document, page, one PDF-point box per
      layout element, the text and an evidence image. Results fuse a part-number-aware BM25 ranking with a multilingual
      dense ranking (both ranks are shown). Click a result to see its boxes on the page, with the table row that holds
      the value; <a href="#/docs">Documents</a> shows how every page was segmented.</div>`;
    return;
  }
  out.innerHTML = `<div class="summary">Searching…</div>`;
  const t0 = performance.now();
  try {
    const res = await api("/api/search" + qs({ q: params.q, k: params.k, type: params.type, doc: params.doc }));
    rememberHits(res.hits);
    const ms = Math.round(performance.now() - t0);
    out.innerHTML = `<div class="summary">${res.hits.length} evidence packages for <b>${esc(res.query)}</b> · ${ms} ms</div>` +
      (res.hits.length ? `<div class="results">${res.hits.map((h, i) => resultCard(h, i)).join("")}</div>` : `<div class="notice">Nothing found. Try a part number, a parameter name or fewer words.</div>`);
    bindCards(out);
  } catch (e) { out.innerHTML = ""; showError(e, out); }
}

// ------------------------------------------------------------------ answer
async function viewAnswer(params) {
  const [info, docs] = await Promise.all([loadInfo(), loadDocs().catch(() => [])]);
  app.innerHTML = `<div class="narrow">${searchForm(params, info, docs, "answer")}
    ${info.answers_enabled ? "" : `<div class="notice warn" id="off">Answers are off: no LLM endpoint is configured (set <code>LAYOUTRAG_LLM_BASE_URL</code>, <code>LAYOUTRAG_LLM_MODEL</code>). The evidence is shown below.</div>`}
    <div id="out"></div></div>`;
  bindForm("answer");
  const out = document.getElementById("out");
  if (!params.q) return;
  out.innerHTML = `<div class="summary">${info.answers_enabled ? "Answering…" : "Searching…"}</div>`;
  try {
    const res = await api("/api/answer" + qs({ q: params.q }));
    rememberHits(res.hits);
    const byLabel = {};
    res.hits.forEach((h, i) => { byLabel["E" + (i + 1)] = h; });
    let html = "";
    if (res.status === "answered" || res.status === "uncited") {
      const body = esc(res.answer).replace(/\[E(\d{1,3})\]/g, (m, n) => {
        const h = byLabel["E" + n];
        return h ? `<a class="cite" href="${esc(viewerHref(h.doc_id, h.page, h.chunk_id, h.matched_row))}" title="${esc(docName(h.doc_id))}, page ${h.page}">[E${n}]</a>` : m;
      });
      html += `<div class="answer" id="answer">${body}</div>`;
    }
    if (res.message) html += `<div class="notice ${res.status === "answered" ? "ok" : "warn"}" id="answer-status">${esc(res.message)}</div>`;
    html += `<div class="summary">Evidence (${res.hits.length})</div><div class="results">` +
      res.hits.map((h, i) => resultCard(h, i, `<span class="elabel">E${i + 1}</span>`)).join("") + `</div>`;
    out.innerHTML = html;
    bindCards(out);
  } catch (e) { out.innerHTML = ""; showError(e, out); }
}

// ------------------------------------------------------------------ documents
async function viewDocs() {
  const docs = await loadDocs();
  app.innerHTML = `<div class="narrow"><div class="summary">${docs.length} documents</div><div class="doclist">` +
    docs.map((d) => `<div class="doccard">
      <div class="name"><a href="${esc(viewerHref(d.doc_id, 1))}">${esc(d.file_name || d.doc_id)}</a></div>
      <div>${esc(d.title || "")}</div>
      <div class="muted">${esc([d.vendor, d.product_type].filter(Boolean).join(" · "))}</div>
      <div class="muted">${d.part_numbers.length ? "parts: " + esc(d.part_numbers.slice(0, 6).join(", ")) + (d.part_numbers.length > 6 ? " …" : "") : ""}</div>
      <div class="faint">${d.n_chunks} chunks · <a href="#/chunks/${encodeURIComponent(d.doc_id)}">chunk browser</a> · <span class="mono">${esc(d.doc_id)}</span></div>
    </div>`).join("") + `</div></div>`;
}

function typeChips(types, active, hrefFor) {
  return types.map((t) => `<a class="chip ${active.has(t) ? "on" : ""}" href="${esc(hrefFor(t))}">${esc(t)}</a>`).join("");
}

function cardPanel(card, detail) {
  const kp = Object.entries(card.key_parameters || {}).map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("");
  return `<h3>Document card</h3><div class="body"><dl class="kv">
    <dt>file</dt><dd>${esc(card.file_name)}</dd>
    <dt>title</dt><dd>${esc(card.title)}</dd>
    <dt>vendor</dt><dd>${esc(card.vendor)}</dd>
    <dt>type</dt><dd>${esc(card.product_type)}</dd>
    <dt>series</dt><dd>${esc((card.series || []).join(", "))}</dd>
    <dt>parts</dt><dd class="mono">${esc((card.part_numbers || []).join(", "))}</dd>
    <dt>pages</dt><dd>${detail.n_pages} · ${detail.chunks.length} chunks</dd>
    <dt>doc id</dt><dd class="mono">${esc(card.doc_id)}</dd>${kp}</dl>
    <p>${detail.has_pdf ? `<a href="/api/documents/${encodeURIComponent(card.doc_id)}/pdf" target="_blank" rel="noopener">Open the PDF</a> · ` : ""}<a href="#/chunks/${encodeURIComponent(card.doc_id)}">Chunk browser</a></p></div>`;
}

function chunkPanel(chunk, rowIdx, also = []) {
  const sc = hitScores(chunk.chunk_id);
  const rows = chunk.rows || [];
  // the stored header is shown once: as its own row unless the rows already carry it
  const header = chunk.header && chunk.header.length && !rows.some((r) => r.is_header) ? `<tr>${chunk.header.map((c) => `<th>${esc(c)}</th>`).join("")}</tr>` : "";
  const rowsHtml = rows.length ? `<h4>Table rows</h4><div class="rowswrap"><table class="rows">${header}${rows.map((r, i) => {
    const tag = r.is_header ? "th" : "td";
    const cells = (r.cells && r.cells.length ? r.cells : [r.text]).map((c) => `<${tag}>${esc(c)}</${tag}>`).join("");
    return `<tr class="${i === rowIdx ? "matched" : ""}" data-row="${i}" title="row ${i}, page ${r.page}">${cells}</tr>`;
  }).join("")}</table></div>` : "";
  return `<h3>Chunk</h3><div class="body"><dl class="kv">
      <dt>chunk id</dt><dd class="mono">${esc(chunk.chunk_id)}</dd>
      <dt>type</dt><dd><span class="badge ${esc(chunk.block_type)}">${esc(chunk.block_type)}</span>${chunk.indexed === false ? ' <span class="faint">(not indexed)</span>' : ""}</dd>
      <dt>document</dt><dd>${esc(docName(chunk.doc_id))}</dd>
      <dt>pages</dt><dd>${pagesOf(chunk).join(", ")}</dd>
      <dt>section</dt><dd>${esc(chunk.toc_path || chunk.section_title || "–")}</dd>
      <dt>boxes (pt)</dt><dd class="mono">${regionsOf(chunk).map((r) => `p${r.page} [${r.bbox_pdf.map((v) => v.toFixed(1)).join(", ")}] ${esc(r.label || "")}`).join("<br>")}</dd>
      ${sc ? `<dt>scores</dt><dd class="mono">fused ${fmt(sc.score)} · bm25 #${sc.bm25_rank || "–"} · dense #${sc.dense_rank || "–"}</dd>` : ""}
      ${also.length ? `<dt>returned with</dt><dd class="mono">${also.map((id) => `<a href="${esc(viewerHref(chunk.doc_id, chunk.page, id))}">${esc(id)}</a>`).join("<br>")}</dd>` : ""}
      ${rowIdx != null && rows[rowIdx] ? `<dt>matched row</dt><dd>${esc((rows[rowIdx].cells && rows[rowIdx].cells.length ? rows[rowIdx].cells.join(" | ") : rows[rowIdx].text).slice(0, 200))}</dd>` : ""}
    </dl>
    ${chunk.description ? `<h4>Description</h4><div>${esc(chunk.description)}</div>` : ""}
    ${rowsHtml}
    <h4>Text</h4><div class="text">${esc(chunk.native_text)}</div>
    ${chunk.evidence_image ? `<h4>Evidence image</h4><img class="evidence" alt="evidence" src="/api/chunks/${encodeURIComponent(chunk.chunk_id)}/evidence.png">` : ""}
    <p><a href="/api/chunks/${encodeURIComponent(chunk.chunk_id)}" target="_blank" rel="noopener">JSON</a></p></div>`;
}

function treePanel(docs, docId, detail, curPage, curChunk, activeTypes) {
  const chunkById = Object.fromEntries(detail.chunks.map((c) => [c.chunk_id, c]));
  const items = docs.map((d) => {
    if (d.doc_id !== docId) return `<li><a href="${esc(viewerHref(d.doc_id, 1))}" title="${esc(d.file_name)}">${esc(d.file_name || d.doc_id)}</a></li>`;
    const pages = detail.pages.map((p) => {
      const open = p.page === curPage;
      const chunks = open ? p.chunk_ids.map((id) => chunkById[id]).filter((c) => c && activeTypes.has(c.block_type)).map((c) =>
        `<li class="chunk"><a class="${c.chunk_id === curChunk ? "cur" : ""}" href="${esc(viewerHref(docId, p.page, c.chunk_id))}" title="${esc(c.text_head)}">${esc(c.block_type)} · ${esc((c.section_title || c.text_head || "").slice(0, 40))}</a></li>`).join("") : "";
      return `<li><a class="${open ? "cur" : ""}" href="${esc(viewerHref(docId, p.page))}">page ${p.page} <span class="faint">(${p.chunk_ids.length})</span></a>${open ? `<ul>${chunks}</ul>` : ""}</li>`;
    }).join("");
    return `<li><a class="cur" href="${esc(viewerHref(d.doc_id, 1))}" title="${esc(d.file_name)}">${esc(d.file_name || d.doc_id)}</a><ul>${pages}</ul></li>`;
  }).join("");
  return `<h3>Documents</h3><div class="body"><ul>${items}</ul></div>`;
}

async function viewDoc(docId, params) {
  const [docs, detail] = await Promise.all([loadDocs(), loadDetail(docId)]);
  const chunkId = params.chunk || null;
  const also = new Set(params.also ? params.also.split(",") : []);
  const chunk = chunkId ? await api("/api/chunks/" + encodeURIComponent(chunkId)) : null;
  const hit = chunkId ? hitScores(chunkId) : null;
  let rowIdx = params.row != null && params.row !== "" ? Number(params.row) : (hit && hit.matched_row != null ? hit.matched_row : null);
  if (chunk && !(rowIdx >= 0 && rowIdx < (chunk.rows || []).length)) rowIdx = null;
  const allTypes = [...new Set(detail.chunks.map((c) => c.block_type))].sort();
  const activeTypes = new Set(params.types ? params.types.split(",") : allTypes);
  const nPages = detail.pages.length ? Math.max(...detail.pages.map((p) => p.page)) : 1;
  const page = Math.min(Math.max(1, Number(params.page) || (chunk ? chunk.page : 1)), nPages);
  const cell = params.cell ? params.cell.split(",").map(Number) : null;  // a spec value's cell (PDF points)
  // a chunk shown on its own first page brings every page it spans (a table continued over a page break)
  const shown = chunk && page === chunk.page ? pagesOf(chunk) : [page];
  const withParams = (p) => "#/doc/" + encodeURIComponent(docId) + qs(p);
  const toggle = (t) => {
    const s = new Set(activeTypes);
    s.has(t) ? s.delete(t) : s.add(t);
    return withParams({ page, chunk: chunkId, row: params.row, types: [...s].join(",") || "none" });
  };

  const frames = shown.map((pg) => {
    const boxes = [];
    for (const c of detail.chunks) {
      if (c.chunk_id === chunkId || also.has(c.chunk_id) || !activeTypes.has(c.block_type)) continue;
      for (const r of c.regions) if (r.page === pg) boxes.push({ bbox: r.bbox_pdf, cls: "other t-" + c.block_type, title: `${c.block_type}: ${c.text_head}`, href: viewerHref(docId, pg, c.chunk_id), id: c.chunk_id });
    }
    if (chunk) {
      for (const r of regionsOf(chunk)) if (r.page === pg) boxes.push({ bbox: r.bbox_pdf, cls: "hit", title: `${chunk.block_type} ${chunk.chunk_id}`, id: chunk.chunk_id });
      for (const c of detail.chunks) {
        if (!also.has(c.chunk_id)) continue;
        for (const r of c.regions) if (r.page === pg) boxes.push({ bbox: r.bbox_pdf, cls: "hit companion", title: `${c.block_type} ${c.chunk_id} (returned with the hit)`, id: c.chunk_id });
      }
      const row = rowIdx != null ? chunk.rows[rowIdx] : null;
      if (row && row.page === pg) boxes.push({ bbox: row.bbox_pdf, cls: "row", title: "matched row: " + row.text, row: rowIdx });
    }
    if (cell && pg === page) boxes.push({ bbox: cell, cls: "cell", title: "spec value cell" });
    const cap = shown.length > 1 ? `<div class="caption">page ${pg}${pg !== chunk.page ? " (continued)" : ""}</div>` : "";
    return `<div class="pagewrap">${cap}${pageFrame(docId, pg, pageSize(detail, pg, chunk), boxes, detail.has_pdf)}</div>`;
  }).join("");

  const last = shown[shown.length - 1];
  app.innerHTML = `<div class="viewer">
    <aside class="pane tree">${treePanel(docs, docId, detail, page, chunkId, activeTypes)}</aside>
    <section>
      <div class="pagebar">
        <span class="title">${esc(docName(docId))} — page ${shown.join("–")} of ${nPages}</span>
        <a class="btn secondary small ${page <= 1 ? "disabled" : ""}" id="prev" href="${page > 1 ? esc(withParams({ page: page - 1, chunk: chunkId, types: params.types })) : "javascript:void 0"}">‹ prev</a>
        <a class="btn secondary small" id="next" href="${last < nPages ? esc(withParams({ page: last + 1, chunk: chunkId, types: params.types })) : "javascript:void 0"}">next ›</a>
      </div>
      <div class="pagebar"><span class="faint">show:</span> ${typeChips(allTypes, activeTypes, toggle)}
        <span class="legend"><span><i></i>evidence</span><span><i class="row"></i>matched row</span><span><i class="other"></i>other chunks</span></span></div>
      <div class="pages">${frames}</div>
    </section>
    <aside class="pane details">${chunk ? chunkPanel(chunk, rowIdx, [...also]) : ""}${cardPanel(state.docMap[docId] || detail.card, detail)}</aside>
  </div>`;
  if (chunk || cell) {
    const el = app.querySelector("rect.cell") || app.querySelector("rect.hit");
    const img = app.querySelector(".page-frame img");
    if (el && img) img.addEventListener("load", () => el.scrollIntoView({ block: "center" }), { once: true });
  }
}

async function viewChunks(docId, params) {
  const [, detail] = await Promise.all([loadDocs(), loadDetail(docId)]);
  const allTypes = [...new Set(detail.chunks.map((c) => c.block_type))].sort();
  const active = new Set(params.type ? params.type.split(",") : allTypes);
  const href = (t) => {
    const s = new Set(active);
    s.has(t) ? s.delete(t) : s.add(t);
    return "#/chunks/" + encodeURIComponent(docId) + qs({ type: [...s].join(",") || "none" });
  };
  const rows = detail.chunks.filter((c) => active.has(c.block_type));
  app.innerHTML = `<div class="narrow">
    <div class="pagebar"><span class="title">Chunks of ${esc(docName(docId))}</span><a href="${esc(viewerHref(docId, 1))}">page viewer</a></div>
    <div class="pagebar"><span class="faint">types:</span> ${typeChips(allTypes, active, href)} <span class="muted">${rows.length} of ${detail.chunks.length}</span></div>
    <table class="grid"><thead><tr><th>chunk</th><th>type</th><th>pages</th><th>section</th><th>text</th></tr></thead><tbody>
    ${rows.map((c) => `<tr data-href="${esc(viewerHref(docId, c.page, c.chunk_id))}"><td class="mono">${esc(c.chunk_id)}</td><td><span class="badge ${esc(c.block_type)}">${esc(c.block_type)}</span>${c.indexed ? "" : ' <span class="faint">not indexed</span>'}</td><td>${c.pages.join(", ")}</td><td>${esc(c.toc_path || c.section_title)}</td><td class="head">${esc(c.text_head)}</td></tr>`).join("")}
    </tbody></table></div>`;
  app.querySelectorAll("tr[data-href]").forEach((tr) => tr.addEventListener("click", () => { location.hash = tr.dataset.href; }));
}


// ------------------------------------------------------------------ parametric search and compare
function cellHref(v, c) {
  return "#/doc/" + encodeURIComponent(v.doc_id) + qs({ page: v.page, chunk: v.chunk_id || undefined, cell: c.bbox_pdf.map((x) => x.toFixed(2)).join(",") });
}
function specValueLinks(values) {
  if (!values || !values.length) return '<span class="faint">–</span>';
  // several values in one cell (ESR per frequency band, one per supply): each says under what conditions it holds
  const several = values.length > 1;
  return values.slice(0, 4).map((v) => {
    const c = v.cells[0];
    const unitShown = !v.unit_printed || v.value_text.trimEnd().endsWith(v.unit_printed);  // as SpecValue.printed()
    const label = (unitShown ? v.value_text : `${v.value_text} ${v.unit_printed}`).trim() + (v.table === "ratings" ? " (ratings)" : "");
    const cond = v.conditions || "";
    const when = several && cond ? ` <span class="faint cond">${esc(cond.length > 40 ? cond.slice(0, 39) + "…" : cond)}</span>` : "";
    if (!c) return esc(label) + when;
    return `<a class="speccell" href="${esc(cellHref(v, c))}" title="${esc(v.parameter_printed + ": " + cond)} — page ${v.page}">${esc(label)}</a>${when}`;
  }).join("<br>");
}
async function viewSpecs(params) {
  const where = (params.where || "").split(";").map((x) => x.trim()).filter(Boolean);
  app.innerHTML = `<div class="narrow"><form id="specform" class="searchform">
      <input name="q" id="spec-q" placeholder="32.768 kHz crystal ESR below 50k, 12.5 pF" value="${esc(params.q || "")}">
      <input name="where" id="spec-where" placeholder="ESR <= 50 kohm; load capacitance = 12.5 pF" value="${esc(params.where || "")}">
      <input name="type" id="spec-type" placeholder="type (crystal, TCXO, …)" value="${esc(params.type || "")}" size="12">
      <button class="btn" type="submit">Find parts</button></form><div id="specres"></div></div>`;
  document.getElementById("specform").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    location.hash = "#/specs" + qs({ q: f.get("q"), where: f.get("where"), type: f.get("type") });
  });
  if (!params.q && !where.length) return;
  const u = new URLSearchParams();
  if (params.q) u.set("q", params.q);
  for (const w of where) u.append("where", w);
  if (params.type) u.set("type", params.type);
  const res = await api("/api/specs?" + u.toString());
  const cons = res.constraints_read || [];
  const head = cons.map((c) => `<th>${esc(c)}</th>`).join("");
  const rows = res.results.map((r) => `<tr><td><b>${esc(r.part)}</b><br><span class="faint">${esc(r.file_name)} · ${esc(r.product_type)}</span></td>
      <td>${r.n_met}/${r.matches.length}${r.n_failed ? ` <span class="faint">${r.n_failed} failed</span>` : ""}${r.n_unknown ? ` <span class="faint">${r.n_unknown} unknown</span>` : ""}</td>
      ${r.matches.map((m) => `<td class="st-${esc(m.status)}"><span class="badge">${esc(m.status)}</span> ${specValueLinks(m.values)}</td>`).join("")}</tr>`).join("");
  document.getElementById("specres").innerHTML = `<p class="muted" id="spec-read">read as: ${cons.map(esc).join("; ")}${res.product_type ? " · type " + esc(res.product_type) : ""}${res.unparsed ? ` · <span class="faint">not read: ${esc(res.unparsed)}</span>` : ""}</p>
    <table class="grid spectable" id="spec-table"><thead><tr><th>part</th><th>met</th>${head}</tr></thead><tbody>${rows}</tbody></table>
    <p class="muted">${res.results.length} results · <a href="#/compare${qs({ parts: res.results.slice(0, 4).map((r) => r.part).join(",") })}">compare the first ${Math.min(4, res.results.length)}</a></p>`;
}
async function viewCompare(params) {
  const parts = (params.parts || "").split(",").map((x) => x.trim()).filter(Boolean);
  app.innerHTML = `<div class="narrow"><form id="cmpform" class="searchform">
      <input name="parts" id="cmp-parts" placeholder="parts, comma-separated: ABM19, ABLN14-12.000MHZ-K4-T" value="${esc(params.parts || "")}">
      <button class="btn" type="submit">Compare</button></form><div id="cmpres"></div></div>`;
  document.getElementById("cmpform").addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.hash = "#/compare" + qs({ parts: new FormData(ev.target).get("parts") });
  });
  if (!parts.length) return;
  const u = new URLSearchParams();
  for (const p of parts) u.append("part", p);
  const cmp = await api("/api/compare?" + u.toString());
  document.getElementById("cmpres").innerHTML = `<table class="grid spectable" id="cmp-table"><thead><tr><th>parameter</th>${cmp.parts.map((p, i) => `<th>${esc(p)}<br><span class="faint">${esc(docName(cmp.doc_ids[i]))}</span></th>`).join("")}</tr></thead>
    <tbody>${cmp.rows.map((r) => `<tr><td>${esc(r.parameter)}</td>${r.cells.map((vs) => `<td>${specValueLinks(vs)}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
}

// ------------------------------------------------------------------ router
async function route() {
  const h = location.hash || "#/search";
  const [pathPart, query] = h.slice(1).split("?");
  const params = Object.fromEntries(new URLSearchParams(query || ""));
  const parts = pathPart.split("/").filter(Boolean).map(decodeURIComponent);
  const name = parts[0] || "search";
  document.querySelectorAll("[data-nav]").forEach((a) => a.classList.toggle("active", a.dataset.nav === (name === "doc" || name === "chunks" ? "docs" : name)));
  try {
    await loadInfo();
    if (name === "answer") await viewAnswer(params);
    else if (name === "docs") await viewDocs();
    else if (name === "specs") await viewSpecs(params);
    else if (name === "compare") await viewCompare(params);
    else if (name === "doc" && parts[1]) await viewDoc(parts[1], params);
    else if (name === "chunks" && parts[1]) await viewChunks(parts[1], params);
    else await viewSearch(params);
    document.title = "layoutrag" + (params.q ? " — " + params.q : "");
  } catch (e) {
    app.innerHTML = "";
    showError(e);
  }
  app.dataset.ready = name;
}

window.addEventListener("hashchange", route);
route();

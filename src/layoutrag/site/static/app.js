// The static site's UI: search in the browser (search.js), hits as evidence packages, a page viewer
// with the chunk's boxes drawn on the page image, a document tree and a chunk browser.
// Routes live in the URL hash: #/search?q=  #/doc/{n}?page=&chunk=&also=&row=  #/docs
// Chunk text is data, never markup: every string reaches the page through textContent or an
// attribute value (no innerHTML anywhere), and no request leaves the site's folder.
import { InputError, SiteSearch } from "./search.js";

const SVG = "http://www.w3.org/2000/svg";
const app = document.getElementById("app");
const site = window.LAYOUTRAG_SITE;
const meta = site.meta;
const docNo = new Map(meta.doc_ids.map((d, i) => [d, i]));
let engine = null;

/** h("div", {class: "x"}, "text", child...): an element; strings become text nodes, never markup. */
function h(tag, attrs, ...children) {
  const el = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null && v !== false) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}
function fmt(x, d = 4) { return x == null ? "–" : Number(x).toFixed(d); }
function docOf(docId) { return meta.docs[docNo.get(docId)]; }
function docName(docId) { const d = docOf(docId); return d ? (d.file_name || d.title || docId) : docId; }
function regionsOf(c) {
  if (c.regions && c.regions.length) return c.regions;
  return (c.bboxes_pdf || []).map((b) => ({ page: c.page, bbox_pdf: b, label: c.block_type }));
}
function pagesOf(c) { return [...new Set(regionsOf(c).map((r) => r.page).concat([c.page]))].sort((a, b) => a - b); }
function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") u.set(k, v);
  const s = u.toString();
  return s ? "?" + s : "";
}
function viewerHref(docId, page, chunkId, row, also) {
  return "#/doc/" + docNo.get(docId) + qs({ page, chunk: chunkId, row, also: also && also.length ? also.join(",") : undefined });
}
function byId() {
  if (!byId.map) byId.map = new Map(engine.chunks.map((c) => [c.chunk_id, c]));
  return byId.map;
}

// ------------------------------------------------------------------ search
function plainNotice() {
  return h("div", { class: "notice intro", id: "mode-note" },
    "Static site: lexical search only — BM25 with the part-aware tokenizer and the zh↔en glossary, ",
    "ranked exactly as layoutrag's own BM25-only path ranks. Dense retrieval and fusion are not in the static site ",
    "(they need the embedding model): run `layoutrag serve` for those.");
}

function matchedRowEl(c, row) {
  const r = row != null && c.rows ? c.rows[row] : null;
  if (!r) return null;
  return h("div", { class: "matchrow" }, h("b", {}, "matched row: "), r.text || (r.cells || []).join(" | "));
}

function evidenceEl(chunkId) {
  const src = meta.images[chunkId];
  return src ? h("div", { class: "ev" }, h("img", { loading: "lazy", alt: "evidence image", src })) : null;
}

function hitCard(hit, i) {
  const c = hit.chunk;
  const pages = pagesOf(c);
  // a unit spanning pages is shown at its focus page; its other part (same chunk id) is a companion
  const also = hit.companions.map((x) => x.chunk_id).filter((id) => id !== c.chunk_id);
  const href = viewerHref(c.doc_id, c.page, c.chunk_id, hit.matched_row, also);
  const card = h("div", { class: "card hit" + (meta.images[c.chunk_id] ? "" : " noimg"), "data-chunk-id": c.chunk_id, "data-href": href },
    h("div", {},
      h("div", { class: "head" },
        h("span", { class: "rank" }, "#" + (i + 1)),
        h("span", { class: "badge " + c.block_type }, c.block_type),
        h("a", { class: "doc", href }, docName(c.doc_id)),
        h("span", { class: "muted" }, pages.length > 1 ? `pages ${pages.join("–")}` : `page ${c.page}`)),
      c.toc_path ? h("div", { class: "path" }, c.toc_path) : null,
      h("div", { class: "text" }, (c.native_text || c.description || "").slice(0, 420)),
      matchedRowEl(c, hit.matched_row),
      hit.companions.length
        ? h("div", { class: "companions" }, hit.companions.map((x) =>
          h("div", { class: "companion", "data-chunk-id": x.chunk_id }, "+ ",
            h("span", { class: "badge " + x.chunk.block_type }, x.chunk.block_type), " ",
            x.chunk_id === c.chunk_id ? h("span", { class: "muted" }, `its part on page ${x.chunk.page}: `) : null,
            (x.chunk.native_text || "").slice(0, 160), " ",
            h("span", { class: "faint" }, "score " + fmt(x.score)))))
        : null,
      h("div", { class: "scores" }, "BM25 score ", h("b", {}, fmt(hit.score)), " · rank " + hit.bm25_rank,
        " · boxes " + (c.bboxes_pdf || []).length, " · ", h("span", { class: "mono faint" }, c.chunk_id))),
    evidenceEl(c.chunk_id));
  card.addEventListener("click", (e) => { if (!e.target.closest("a")) location.hash = href; });
  return card;
}

function renderSearch(params) {
  const q = params.get("q") || "";
  const input = h("input", { type: "search", id: "q", placeholder: "part number, parameter, 中文问题…", value: q, autofocus: true });
  const form = h("form", { class: "searchbar" }, input, h("button", { class: "btn", type: "submit" }, "Search"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    location.hash = "#/search" + qs({ q: input.value });
  });
  const chips = meta.examples.length
    ? h("div", { class: "examples" }, h("span", { class: "muted" }, "examples: "),
      meta.examples.map((ex) => h("a", { class: "chip", href: "#/search" + qs({ q: ex }) }, ex)))
    : null;
  const results = h("div", { class: "results", id: "results" });
  app.replaceChildren(form, chips || "", plainNotice(), results);
  if (!q) return;
  let hits;
  const t0 = performance.now();
  try {
    hits = engine.search(q);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    results.append(h("div", { class: "notice err" }, e.message));
    return;
  }
  const ms = performance.now() - t0;
  results.append(h("div", { class: "summary", id: "summary", "data-ms": ms.toFixed(2) },
    `${hits.length} hits · ${ms.toFixed(1)} ms in this browser · BM25 only`));
  if (!hits.length) results.append(h("div", { class: "notice" }, "No chunk holds these words."));
  hits.forEach((hit, i) => results.append(hitCard(hit, i)));
}

// ------------------------------------------------------------------ page viewer
function pageFrame(docId, page, boxes) {
  const d = docOf(docId);
  const p = (d && d.pages[page]) || { w: 612, h: 792 };
  const svg = h("svg:svg", { viewBox: `0 0 ${p.w} ${p.h}`, preserveAspectRatio: "none" });
  for (const b of boxes) {
    const [x0, y0, x1, y1] = b.bbox;
    const r = h("svg:rect", { class: b.cls, x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0), "data-chunk-id": b.id },
      h("svg:title", {}, b.title || ""));
    if (b.href) {
      r.style.cursor = "pointer";
      r.addEventListener("click", () => { location.hash = b.href; });
    }
    svg.append(r);
  }
  return h("div", { class: "page-frame", "data-page": page, "data-width-pt": p.w, "data-height-pt": p.h },
    p.img ? h("img", { alt: `page ${page}`, src: p.img })
      : h("div", { class: "nopdf", style: `aspect-ratio: ${p.w} / ${p.h}` }, "no page image in this export: boxes only"),
    svg);
}

function kv(pairs) {
  return h("dl", { class: "kv" }, pairs.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

function rowsTable(c, matched) {
  if (!c.rows || !c.rows.length) return null;
  return h("div", { class: "rowswrap" }, h("table", { class: "rows" },
    c.rows.map((r, i) => h("tr", { class: i === matched ? "matched" : undefined },
      (r.cells && r.cells.length ? r.cells : [r.text]).map((cell) => h(r.is_header ? "th" : "td", {}, cell))))));
}

function details(c, row) {
  return h("div", { class: "details", "data-chunk-id": c.chunk_id },
    h("h4", {}, "Evidence package"),
    kv([
      ["chunk", c.chunk_id],
      ["document", docName(c.doc_id)],
      ["page", String(c.page) + (pagesOf(c).length > 1 ? ` (spans ${pagesOf(c).join(", ")})` : "")],
      ["block type", c.block_type],
      ["TOC path", c.toc_path || "–"],
      ["section", c.section_title || "–"],
      ["boxes (pt)", regionsOf(c).map((r) => `p${r.page} [${r.bbox_pdf.map((x) => Math.round(x * 10) / 10).join(", ")}]`).join("  ")],
      ["matched row", row != null && c.rows && c.rows[row] ? `#${row}: ${c.rows[row].text || c.rows[row].cells.join(" | ")}` : "–"],
    ]),
    h("h4", {}, "Text"),
    h("div", { class: "text" }, c.native_text || ""),
    c.description ? h("p", { class: "muted" }, c.description) : null,
    rowsTable(c, row),
    meta.images[c.chunk_id] ? h("img", { class: "evidence", alt: "evidence image", src: meta.images[c.chunk_id] }) : null);
}

function docTree(docId, cur) {
  const chunks = engine.chunks.filter((c) => c.doc_id === docId);
  const byPage = new Map();
  for (const c of chunks) { if (!byPage.has(c.page)) byPage.set(c.page, []); byPage.get(c.page).push(c); }
  return h("div", { class: "pane tree" }, h("h3", {}, docName(docId)),
    h("div", { class: "body" }, h("ul", {}, [...byPage.keys()].sort((a, b) => a - b).map((pg) =>
      h("li", {}, h("a", { href: viewerHref(docId, pg) }, `page ${pg}`),
        h("ul", {}, byPage.get(pg).map((c) => h("li", { class: "chunk" },
          h("a", { href: viewerHref(docId, pg, c.chunk_id), class: c.chunk_id === cur ? "cur" : undefined, "data-chunk-id": c.chunk_id },
            `${c.block_type}: ${(c.section_title || c.native_text || "").slice(0, 48)}`)))))))));
}

function renderDoc(n, params) {
  const docId = meta.doc_ids[n];
  if (docId === undefined) { app.replaceChildren(h("div", { class: "notice err" }, "unknown document")); return; }
  const chunkId = params.get("chunk");
  const chunk = chunkId ? byId().get(chunkId) : null;
  const page = Number(params.get("page") || (chunk ? chunk.page : 1));
  const row = params.get("row") != null ? Number(params.get("row")) : null;
  const also = (params.get("also") || "").split(",").filter(Boolean);
  const boxes = [];
  for (const c of engine.chunks) {
    if (c.doc_id !== docId) continue;
    const role = c.chunk_id === chunkId ? "hit" : also.includes(c.chunk_id) ? "hit companion" : "other t-" + c.block_type;
    for (const r of regionsOf(c)) {
      if (r.page !== page) continue;
      boxes.push({ bbox: r.bbox_pdf, cls: role, id: c.chunk_id, title: `${c.block_type} · ${c.chunk_id}`, href: role.startsWith("other") ? viewerHref(docId, page, c.chunk_id) : undefined });
    }
  }
  if (chunk && row != null && chunk.rows && chunk.rows[row] && (chunk.rows[row].page || chunk.page) === page) {
    boxes.push({ bbox: chunk.rows[row].bbox_pdf, cls: "row", title: "matched row" });
  }
  // the selected chunk's boxes above the others
  boxes.sort((a, b) => (a.cls.startsWith("other") ? 0 : 1) - (b.cls.startsWith("other") ? 0 : 1));
  const d = docOf(docId);
  const pageNos = Object.keys(d.pages).map(Number).sort((a, b) => a - b);
  const bar = h("div", { class: "pagebar" }, h("span", { class: "title" }, docName(docId)),
    pageNos.map((p) => h("a", { class: p === page ? "btn small" : "btn small secondary", href: viewerHref(docId, p, chunkId, row, also) }, String(p))));
  const viewer = h("div", { class: "viewer" },
    docTree(docId, chunkId),
    h("div", { class: "pages" }, bar, pageFrame(docId, page, boxes)),
    h("div", { class: "pane" }, chunk ? details(chunk, row) : h("p", { class: "muted" }, "Pick a box or a chunk to see its evidence package."),
      also.map((id) => byId().get(id)).filter(Boolean).map((c) => details(c, null))));
  app.replaceChildren(viewer);
}

function renderDocs() {
  app.replaceChildren(h("div", { class: "doclist" }, meta.docs.map((d, i) => {
    const n = engine.chunks.filter((c) => c.doc_id === d.doc_id).length;
    return h("a", { class: "doccard", href: `#/doc/${i}?page=1` },
      h("div", { class: "name" }, d.file_name || d.title || d.doc_id),
      h("div", { class: "muted" }, [d.vendor, (d.part_numbers || []).slice(0, 3).join(", ")].filter(Boolean).join(" · ")),
      h("div", { class: "faint" }, `${Object.keys(d.pages).length} pages · ${n} chunks`));
  })));
}

function route() {
  const [path, query] = (location.hash.slice(1) || "/search").split("?");
  const params = new URLSearchParams(query || "");
  for (const a of document.querySelectorAll("[data-nav]")) a.classList.toggle("active", path.startsWith("/" + a.dataset.nav) || (a.dataset.nav === "docs" && path.startsWith("/doc")));
  const m = path.match(/^\/doc\/(\d+)$/);
  if (m) renderDoc(Number(m[1]), params);
  else if (path === "/docs") renderDocs();
  else renderSearch(params);
}

// the parity hook for tests and benchmarks: the site's hits in the shape of layoutrag.site.export.parity_hits
function slim(hit) {
  return { chunk_id: hit.chunk_id, page: hit.chunk.page, score: hit.score, bm25_rank: hit.bm25_rank, matched_row: hit.matched_row };
}
window.layoutrag = {
  ready: SiteSearch.load(site).then((e) => {
    engine = e;
    document.getElementById("corpus").textContent = `${meta.docs.length} documents · ${e.chunks.length} chunks · static`;
    window.addEventListener("hashchange", route);
    route();
    return true;
  }),
  search(q, topK) {
    return engine.search(q, { topK }).map((x) => ({ ...slim(x), companions: x.companions.map(slim) }));
  },
  time(q, topK) {
    const t0 = performance.now();
    engine.search(q, { topK });
    return performance.now() - t0;
  },
};

"""Spec extraction on real datasheets: precision and recall against hand-written page gold.

    python benchmarks/spec_real_recall.py DATA_DIR [--gold benchmarks/data/spec_real_gold.txt] [--json OUT] [-v]

DATA_DIR: the sample's datasheets ingested (spec stage run). The gold (`spec_real_gold.txt`, its
header says how it was written) lists every spec value printed in the spec tables of one page per
document. Every value the system extracted on those pages is matched to at most one gold value:

- the same numbers in the same roles (min / typ / max; a merged Value column's lone number may be
  typ or max), compared in the canonical unit after converting the printed unit with the SI
  prefix table written here (not the system's unit parser);
- the parameter: an extracted value with a canonical id must carry the gold's id; one kept under
  its printed name is right when the gold row's name or symbol shares a word with it;
- the part: a gold row under ``part: NAME`` (one column group per part) needs that part;
- the cell box: the PDF's words inside the first value cell's box (read from the source PDF) hold
  the printed number.

Precision = matched extracted / extracted on the gold pages; recall = matched gold / gold. Each
unmatched extracted value is put in one kind (parameter, number/role, unit, part, box, spurious).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from layoutrag.records import DocChunks, DocSpecs, Document, SpecValue, Word

_PREFIX = {"p": 1e-12, "n": 1e-9, "µ": 1e-6, "u": 1e-6, "m": 1e-3, "": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}
_BASE = {"V": "V", "A": "A", "Ω": "ohm", "F": "F", "Hz": "Hz", "s": "s", "W": "W", "S": "S", "C": "C", "H": "H", "m": "m"}
_PLAIN = {"°C": "°C", "ppm": "ppm", "%": "%", "dB": "dB", "K/W": "°C/W", "°C/W": "°C/W", "deg": "°", "°": "°",
          "V/µs": "V/s", "V/us": "V/s", "mW/m2": "W/m²", "W/m2": "W/m²", "ppm/°C": "ppm/°C", "bit": "bit",
          "LSB": "LSB", "dBc/Hz": "dBc/Hz", "ppm/V": "ppm/V", "mV/A": "V/A", "V/A": "V/A", "µV/°C": "V/°C",
          "%/V": "%/V", "dBm": "dBm", "MHz/V": "Hz/V", "kV": "V", "Vrms": "V", "mVrms": "V",
          "°C/LSB": "°C/LSB", "°C/V": "°C/V", "G/A": "G/A", "pA/°C": "A/°C", "V/mV": "V/V", "dBc": "dBc", "Bits": "bit", "bits": "bit", "cycles": "cycles", "years": "year", "mV/°C": "V/°C", "Kbit": "bit", "nV/√Hz": "V/√Hz"}
_FACTOR = {"pA/°C": 1e-12, "V/mV": 1e3, "V/µs": 1e6, "V/us": 1e6, "mW/m2": 1e-3, "mV/A": 1e-3, "µV/°C": 1e-6, "mV/°C": 1e-3, "kV": 1e3,
           "mVrms": 1e-3, "Kbit": 1024.0, "nV/√Hz": 1e-9}


def gold_unit(printed: str) -> tuple[str, float]:
    u = unicodedata.normalize("NFKC", printed).replace("μ", "µ").replace("Ω", "Ω").replace("℃", "°C")
    if u in _PLAIN:
        return _PLAIN[u], _FACTOR.get(u, 1.0)
    for base, canon in _BASE.items():
        if u.endswith(base) and u[: -len(base)] in _PREFIX:
            return canon, _PREFIX[u[: -len(base)]]
    raise SystemExit(f"gold: unit {printed!r} not in the benchmark's table")


@dataclass
class Gold:
    doc: str
    page: int
    part: str
    name: str
    symbol: str
    min: float | None
    typ: float | None
    max: float | None
    either: bool  # a merged Value column's number: typ or max
    unit: str
    pid: str
    line: int


def _num(s: str, f: float) -> float | None:
    s = s.strip().replace("−", "-").replace("+", "")
    return None if not s else float(f"{float(s) * f:.12g}")


def load_gold(path: Path) -> list[Gold]:
    out: list[Gold] = []
    doc, page, part = "", 0, ""
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("=="):
            _, doc, p = line.split()
            page, part = int(p), ""
            continue
        if line.startswith("part:"):
            part = line[5:].strip()
            continue
        f = [x.strip() for x in line.split("|")]
        f += [""] * (7 - len(f))
        name, sym, lo, ty, hi, unit, pid = f[:7]
        canon, fac = gold_unit(unit)
        either = ty.startswith("=")
        ty = ty.lstrip("=")
        vals: dict[str, float | None] = {"min": None, "typ": None, "max": None}
        least = lo.startswith("±") and all(not x or x.startswith("±") for x in (ty, hi))
        for k, s in (("min", lo), ("typ", ty), ("max", hi)):
            if least and s:
                vals[k] = _num(s[1:], fac)  # a ± under Min is a least magnitude: every ± its magnitude
            elif s.startswith("±") and k == "typ" and (lo.startswith("±") or hi.startswith("±")):
                vals["typ"] = _num(s[1:], fac)  # a typical spread beside a ± limit: its magnitude
            elif s.startswith("±"):
                x = _num(s[1:], fac) or 0.0
                vals["min"], vals["max"] = -x, x
            elif s:
                vals[k] = _num(s, fac)
        if pid == "open_loop_gain" and canon == "dB":  # the record keeps a voltage gain as its ratio (specs-38)
            vals = {k: None if x is None else float(f"{10 ** (x / 20):.12g}") for k, x in vals.items()}
            canon = "V/V"
        out.append(Gold(doc, page, part, name, sym, vals["min"], vals["typ"], vals["max"], either, canon, pid, n))
    return out


def _eq(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-30)


def _unit_of(v: SpecValue) -> str:
    return {"°": "°", "deg": "°"}.get(v.unit, v.unit)


def numbers_ok(v: SpecValue, g: Gold) -> bool:
    if g.either:
        x = g.typ
        return v.min is None and ((_eq(v.typ, x) and v.max is None) or (_eq(v.max, x) and v.typ is None))
    return _eq(v.min, g.min) and _eq(v.typ, g.typ) and _eq(v.max, g.max)


def _words(s: str) -> set[str]:
    t = unicodedata.normalize("NFKC", s).lower()
    return {w for w in re.split(r"[^a-z0-9µ\u4e00-\u9fff]+", t) if len(w) >= 2 or w.isdigit()}


def _sym(s: str) -> str:
    return re.sub(r"[^0-9a-z]", "", unicodedata.normalize("NFKC", s).lower())


def param_ok(v: SpecValue, g: Gold) -> bool:
    if v.known:
        return v.parameter == g.pid
    a, b = _sym(v.symbol), _sym(g.symbol)
    if a and b and (a.startswith(b) or b.startswith(a)):
        return True
    mine = _words(v.parameter_printed)
    # the printed name's words are mostly the gold row's (an OCR'd symbol may differ: "los" for IOS)
    return bool(mine) and len(mine & _words(g.name)) >= 0.5 * len(mine)


def _norm_part(s: str) -> str:
    return re.sub(r"[\s\-_./]", "", s).upper()


def part_ok(v: SpecValue, g: Gold) -> bool:
    if not g.part:
        return True
    return _norm_part(g.part) in {_norm_part(x) for x in re.split(r"[,;/]|\band\b", v.part)}


def box_ok(page: pymupdf.Page, v: SpecValue, ocr: list[Word]) -> bool:
    """The first value cell's box holds the printed number: the PDF's words inside it, or on a
    scanned page (no text layer) the OCR words the ingest stored for the page."""
    if not v.cells:
        return False
    c = v.cells[0]
    r = pymupdf.Rect(list(c.bbox_pdf)) * page.derotation_matrix
    words = [w[4] for w in page.get_text("words", clip=r + (-1, -1, 1, 1))]
    if not page.get_text("text").strip():
        b = c.bbox_pdf
        words = [w.text for w in ocr if b[0] - 1 <= w.bbox_pdf.center[0] <= b[2] + 1 and b[1] - 1 <= w.bbox_pdf.center[1] <= b[3] + 1]
    text = " ".join(words)
    want = re.findall(r"\d+(?:[.,]\d+)?", unicodedata.normalize("NFKC", c.text))
    have = re.findall(r"\d+(?:[.,]\d+)?", unicodedata.normalize("NFKC", text))
    return bool(want) and all(w in have for w in want)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--gold", type=Path, default=Path(__file__).parent / "data" / "spec_real_gold.txt")
    ap.add_argument("--json", type=Path)
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    gold = load_gold(a.gold)
    by_name: dict[str, Path] = {}
    for d in sorted((a.data / "docs").iterdir()):
        cp = d / "chunks.json"
        if cp.exists() and (d / "specs.json").exists():
            by_name[DocChunks.model_validate_json(cp.read_text(encoding="utf-8")).card.file_name] = d
    pages = sorted({(g.doc, g.page) for g in gold})
    rows = []
    tot_e = tot_ok = tot_g = tot_found = 0
    kinds: dict[str, int] = {}
    for doc, pno in pages:
        gs = [g for g in gold if (g.doc, g.page) == (doc, pno)]
        if doc not in by_name:
            print(f"missing document {doc}", file=sys.stderr)
            continue
        d = by_name[doc]
        specs = DocSpecs.model_validate_json((d / "specs.json").read_text(encoding="utf-8")).specs
        es = [v for v in specs if v.page == pno]
        pdf = pymupdf.open(d / "source.pdf")
        page = pdf[pno - 1]
        ocr: list[Word] = []
        if not page.get_text("text").strip():
            doc_json = Document.model_validate_json((d / "document.json").read_text(encoding="utf-8"))
            ocr = next((p.words for p in doc_json.pages if p.page == pno), [])
        used: set[int] = set()
        wrong: list[tuple[str, SpecValue]] = []
        for v in es:
            cand = [
                (j, g)
                for j, g in enumerate(gs)
                if j not in used and g.unit == _unit_of(v) and numbers_ok(v, g) and param_ok(v, g) and part_ok(v, g)
            ]
            if cand and box_ok(page, v, ocr):
                used.add(cand[0][0])
                continue
            # why not: the nearest gold row (same words in its name) tells the kind of mistake
            if cand:
                kind = "box"
            else:
                near = [g for g in gs if param_ok(v, g) or (_words(v.parameter_printed) & _words(g.name))]
                same_num = [g for g in gs if numbers_ok(v, g)]
                if any(g.unit == _unit_of(v) and numbers_ok(v, g) and param_ok(v, g) for g in gs):
                    kind = "part"
                elif any(g.unit != _unit_of(v) for g in same_num):
                    kind = "unit"
                elif same_num:
                    kind = "parameter"
                elif near:
                    kind = "number/role"
                else:
                    kind = "spurious"
            kinds[kind] = kinds.get(kind, 0) + 1
            wrong.append((kind, v))
        missed = [g for j, g in enumerate(gs) if j not in used]
        tot_e += len(es)
        tot_ok += len(es) - len(wrong)
        tot_g += len(gs)
        tot_found += len(gs) - len(missed)
        rows.append(
            {
                "doc": doc,
                "page": pno,
                "gold": len(gs),
                "extracted": len(es),
                "correct": len(es) - len(wrong),
                "wrong": [
                    f"{k}: {v.parameter} [{v.symbol}] {v.min}/{v.typ}/{v.max} {v.unit} part={v.part} "
                    f"({' / '.join(c.role for c in v.cells)}: {v.value_text})"
                    for k, v in wrong
                ],
                "missed": [f"line {g.line}: {g.name} [{g.symbol}] {g.min}/{g.typ}/{g.max} {g.unit} {g.part}" for g in missed],
            }
        )
        pdf.close()
    print(f"{'document':44s} {'page':>4s} {'gold':>5s} {'extr':>5s} {'ok':>4s} {'P':>6s} {'R':>6s}")
    for r in rows:
        p = r["correct"] / r["extracted"] if r["extracted"] else float("nan")
        rc = (r["gold"] - len(r["missed"])) / r["gold"] if r["gold"] else float("nan")
        print(f"{r['doc'][:44]:44s} {r['page']:4d} {r['gold']:5d} {r['extracted']:5d} {r['correct']:4d} {p:6.3f} {rc:6.3f}")
        if a.verbose:
            for w in r["wrong"]:
                print("    WRONG", w)
            for m in r["missed"]:
                print("    MISSED", m)
    prec = tot_ok / tot_e if tot_e else 0.0
    rec = tot_found / tot_g if tot_g else 0.0
    print(f"pages {len(rows)}  gold {tot_g}  extracted {tot_e}  correct {tot_ok}  "
          f"precision {prec:.3f}  recall {rec:.3f}  wrong by kind {kinds}")
    if a.json:
        a.json.write_text(
            json.dumps({"precision": round(prec, 4), "recall": round(rec, 4), "gold": tot_g, "extracted": tot_e,
                        "kinds": kinds, "pages": rows}, indent=1, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

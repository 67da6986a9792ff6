"""Values printed per band of nominal frequency (ESR "100 Ω 16~20MHz / 80 Ω 20~60MHz"), asked at one frequency or
over a range of them.

    python benchmarks/spec_bands.py TXC_DATA --facts benchmarks/data/spec_facts_txc.tsv [--facts ...] [--ranges] [--json OUT]
    python benchmarks/spec_bands.py GEN_DATA --samples GEN_PDFS [--json OUT]

Crystal tables print ESR (and sometimes tolerance) per band of nominal frequency. A query "26 MHz crystal, ESR <=
60 Ω" asks for the ESR that applies at 26 MHz; a part whose 26 MHz band prints 80 Ω does not meet it, though its
>40 MHz band prints 30 Ω. An ordering code of one frequency (the generated datasheets' "XC-12.000") has the ESR of
its band only.

TXC (imported chunks, `layoutrag import-chunks`): the queries are a fixed grid, written before any result was
looked at - frequency 16, 24, 26, 40, 48 MHz x ESR <= 40, 60, 100 Ω. Gold from the hand-read facts (the files
`spec_txc.py` reads; their printed row gives the band), decided here independently of ``layoutrag``: a document is
gold when a frequency row covers F and an ESR row that applies at F (its printed band holds F; a row printing one
frequency applies at that frequency; a row printing none, at every frequency) is at most the bound. Returned: the
results meeting both constraints; precision and recall of the document set, macro over the queries, for the
documents the facts cover.

`--ranges`: the same over a range of frequencies asked ("frequency = 20 to 30 MHz, ESR <= 60 Ω": parts with some
frequency in 20-30 MHz whose ESR there is at most 60 Ω), a second grid written before any result was looked at -
16-24, 20-30, 30-50, 40-60 MHz x ESR <= 40, 60, 100 Ω. Gold: a frequency row reaching into the range and an ESR row
whose printed band reaches into it (a row printing no frequency: every band) at most the bound.

Generated corpus (`layoutrag samples` output with `specs_truth.jsonl`): every ordering code printing one frequency,
compared alone (`compare_parts`): its ESR cells must be the printed band's that holds its frequency - counted right
when the set of ESR maxima shown equals the truth's for that band.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from spec_queries import score_query
from spec_txc import load_facts

from layoutrag.service import LayoutRAG

FREQS_MHZ = (16, 24, 26, 40, 48)
ESR_OHM = (40, 60, 100)
QUERIES = [{"where": [f"frequency = {f} MHz", f"ESR <= {r} ohm"]} for f in FREQS_MHZ for r in ESR_OHM]
RANGES_MHZ = ((16, 24), (20, 30), (30, 50), (40, 60))
RANGE_QUERIES = [
    {"where": [f"frequency = {lo} to {hi} MHz", f"ESR <= {r} ohm"]} for lo, hi in RANGES_MHZ for r in ESR_OHM
]

_MHZ = {"k": 1e-3, "m": 1.0, "g": 1e3, "": 1e-6}


def printed_band(row: str) -> list[tuple[float, float]] | None:
    """The closed intervals (MHz) of nominal frequency a printed row names after its unit - "16~40MHz", ">40MHz"
    (a strict bound moved by 1 Hz), "26、38.4MHz" (points) - or None (no frequency printed)."""
    t = row.replace("～", "~").replace("≧", ">=").replace("≦", "<=").replace("≤", "<=")
    m = re.search(r"(\d+(?:\.\d+)?)\s*([kmg]?)hz\s*(<=|<)\s*f\w*\s*(<=|<)\s*(\d+(?:\.\d+)?)\s*([kmg]?)hz", t, re.IGNORECASE)
    if m:  # "16 MHz ≤ f0 < 24 MHz"
        lo = float(m.group(1)) * _MHZ[m.group(2).lower()] + (1e-6 if m.group(3) == "<" else 0.0)
        return [(lo, float(m.group(5)) * _MHZ[m.group(6).lower()] - (1e-6 if m.group(4) == "<" else 0.0))]
    m = re.search(r"(\d+(?:\.\d+)?)\s*~\s*(\d+(?:\.\d+)?)\s*([kmg]?)hz", t, re.IGNORECASE)
    if m:
        k = _MHZ[m.group(3).lower()]
        return [(float(m.group(1)) * k, float(m.group(2)) * k)]
    m = re.search(r"(>=|>|<=|<)\s*(\d+(?:\.\d+)?)\s*([kmg]?)hz", t, re.IGNORECASE)
    if m:
        x = float(m.group(2)) * _MHZ[m.group(3).lower()]
        hair = 1e-6 if m.group(1) in (">", "<") else 0.0
        return [(x + hair, float("inf"))] if m.group(1).startswith(">") else [(0.0, x - hair)]
    m = re.search(r"((?:\d+(?:\.\d+)?\s*[,、/]\s*)*\d+(?:\.\d+)?)\s*([kmg]?)hz", t, re.IGNORECASE)
    if m:
        k = _MHZ[m.group(2).lower()]
        return [(float(x) * k, float(x) * k) for x in re.findall(r"\d+(?:\.\d+)?", m.group(1))]
    return None


def load_rows(paths: list[Path]) -> dict[str, list[dict]]:
    """doc -> facts (`spec_txc.load_facts`), an ESR fact with the band its printed row names after the name."""
    facts = load_facts(paths)
    for rows in facts.values():
        for f in rows:
            f["band"] = printed_band(f["row"].split(" ESR ")[-1]) if f["pid"] == "esr" else None
    return facts


def _reaches(band: list[tuple[float, float]] | None, lo_mhz: float, hi_mhz: float) -> bool:
    """Does the printed band share a frequency with lo..hi MHz (a point when lo == hi)? No band: every frequency."""
    return band is None or any(lo - 1e-9 <= hi_mhz and hi + 1e-9 >= lo_mhz for lo, hi in band)


def gold_bands(facts: dict[str, list[dict]], f_hz: float, esr_max: float, f2_hz: float | None = None) -> set[str]:
    """Documents meeting "frequency = F (to F2), ESR <= esr_max" by their facts."""
    lo_hz, hi_hz = f_hz, f_hz if f2_hz is None else f2_hz
    out = set()
    for doc, rows in facts.items():
        freq_ok = any(
            r["pid"] == "frequency"
            and (
                any(
                    x is not None and lo_hz * (1 - 1e-6) <= x <= hi_hz * (1 + 1e-6)
                    for x in (r["min"], r["typ"], r["max"])
                )
                or (r["min"] is not None and r["max"] is not None and r["min"] <= hi_hz and r["max"] >= lo_hz)
            )
            for r in rows
        )
        esr = [r for r in rows if r["pid"] == "esr" and _reaches(r["band"], lo_hz / 1e6, hi_hz / 1e6)]
        worst = [r["max"] if r["max"] is not None else r["typ"] for r in esr]
        if freq_ok and any(w is not None and w <= esr_max * (1 + 1e-9) for w in worst):
            out.add(doc)
    return out


def run_txc(data: Path, fact_files: list[Path], ranges: bool = False) -> dict:
    facts = load_rows(fact_files)
    svc = LayoutRAG(data)
    store = svc._spec_store()
    name_of = {d: store.cards[d].file_name if d in store.cards else d for d in facts}
    by_name = {name_of[d]: rows for d, rows in facts.items()}
    rows = []
    for q in RANGE_QUERIES if ranges else QUERIES:

        def gold_of(cons: list) -> set[str]:
            f = next(c for c in cons if c[0] == "frequency")
            r = next(c[2] for c in cons if c[0] == "esr")
            return gold_bands(by_name, f[2], r, f[3] if f[1] == "range" else None)

        _res, read, g, got, _p, _r = score_query(svc, q, gold_of)
        got = got & set(by_name)
        p = len(got & g) / len(got) if got else (1.0 if not g else 0.0)
        r = len(got & g) / len(g) if g else (1.0 if not got else 0.0)
        rows.append({"q": q["where"], "read": read, "gold": sorted(g), "got": sorted(got), "precision": round(p, 3),
                     "recall": round(r, 3)})
    n = len(rows)
    return {
        "documents": len(facts),
        "queries": n,
        "precision": round(sum(x["precision"] for x in rows) / n, 4),
        "recall": round(sum(x["recall"] for x in rows) / n, 4),
        "queries_with_empty_gold": sum(1 for x in rows if not x["gold"]),
        "rows": rows,
    }


def run_generated(data: Path, samples: Path) -> dict:
    truth = [json.loads(x) for x in (samples / "specs_truth.jsonl").read_text(encoding="utf-8").splitlines() if x]
    svc = LayoutRAG(data)
    by_doc: dict[str, list[dict]] = {}
    for t in truth:
        by_doc.setdefault(t["doc"], []).append(t)
    checked = right = 0
    wrong: list[dict] = []
    for _doc, ts in sorted(by_doc.items()):
        series = {t["part"] for t in ts if t["parameter"] == "esr"}
        codes = {
            t["part"]: t["value"]
            for t in ts
            if t["parameter"] == "frequency" and t["role"] == "value" and t["part"] not in series
        }
        esr_rows: dict[tuple, list[dict]] = {}
        for t in ts:
            if t["parameter"] == "esr" and t["part"] in series:
                esr_rows.setdefault((t["page"], tuple(t["row_bbox"])), []).append(t)
        banded = [(printed_band(rs[0].get("conditions", "")), rs) for rs in esr_rows.values()]
        if not codes or all(b is None for b, _ in banded):
            continue
        for code, f_hz in sorted(codes.items()):
            want = sorted(
                next((r["value"] for r in rs if r["role"] == "max"), 0.0) for b, rs in banded if _reaches(b, f_hz / 1e6, f_hz / 1e6)
            )
            cmp = svc.compare_parts([code])
            shown = sorted(v.max or 0.0 for row in cmp.rows if row.parameter == "esr" for v in row.cells[0])
            checked += 1
            if shown == want:
                right += 1
            else:
                wrong.append({"part": code, "frequency_hz": f_hz, "want": want, "shown": shown})
    return {"ordering_codes": checked, "right": right, "wrong": wrong[:20]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--facts", type=Path, action="append")
    ap.add_argument("--samples", type=Path)
    ap.add_argument("--ranges", action="store_true", help="ask ranges of frequency (TXC only)")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    if bool(a.facts) == bool(a.samples):
        ap.error("give --facts (imported TXC) or --samples (generated corpus)")
    out = run_txc(a.data, a.facts, a.ranges) if a.facts else run_generated(a.data, a.samples)
    print(json.dumps(out, indent=1, ensure_ascii=False))
    if a.json:
        a.json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

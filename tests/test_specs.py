"""Spec values as data (issue 16): parsing printed values, units and constraints; the spec stage on
the served sample corpus against the generator's own ground truth; parametric search and compare
through the service, the HTTP API and the CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from layoutrag.errors import InputError, NotFoundError
from layoutrag.records import DocChunks, SpecConstraint, SpecValue
from layoutrag.service import LayoutRAG
from layoutrag.specs import (
    check,
    describe_constraint,
    format_quantity,
    match_parameter,
    parse_constraint,
    parse_number,
    parse_query,
    parse_unit,
    parse_value,
    split_footnotes,
)


# --------------------------------------------------------------------------- parsing
@pytest.mark.parametrize(
    ("text", "hint", "role", "expect"),
    [
        ("-40 to +85", "°C", "value", (-40.0, None, 85.0, "°C")),
        ("−40～+85 °C", "", "value", (-40.0, None, 85.0, "°C")),
        ("-40~85℃", "", "value", (-40.0, None, 85.0, "°C")),
        ("±10 ppm", "", "value", (-10.0, None, 10.0, "ppm")),
        ("±10", "ppm", "typ", (-10.0, None, 10.0, "ppm")),
        ("4u7", "F", "typ", (None, 4.7e-6, None, "F")),
        ("4.7 µF", "", "typ", (None, 4.7e-6, None, "F")),
        ("4.7 μF", "", "typ", (None, 4.7e-6, None, "F")),
        ("50 kΩ", "", "max", (None, None, 50000.0, "ohm")),
        ("50 kohm", "", "max", (None, None, 50000.0, "ohm")),
        ("12 mA", "", "typ", (None, 0.012, None, "A")),
        ("±0.03 ppm/°C", "", "value", (-0.03, None, 0.03, "ppm/°C")),
        ("300", "µW", "max", (None, None, 3e-4, "W")),
        ("0.5 max", "mA", "value", (None, None, 5e-4, "A")),
        ("≤ 50", "Ω", "value", (None, None, 50.0, "ohm")),
        ("1.8 - 3.6 V", "", "value", (1.8, None, 3.6, "V")),
        ("12.000 MHz", "", "value", (None, 12e6, None, "Hz")),
        ("255 (10 s max)", "°C", "value", (None, 255.0, None, "°C")),
        ("-135", "dBc/Hz", "typ", (None, -135.0, None, "dBc/Hz")),
    ],
)
def test_printed_values_become_numbers_in_the_canonical_unit(text, hint, role, expect) -> None:
    pv = parse_value(text, hint, role)
    assert pv is not None, text
    got = (pv.min, pv.typ, pv.max, pv.unit)
    for g, e in zip(got[:3], expect[:3], strict=True):
        assert (g is None and e is None) or (g is not None and e is not None and abs(g - e) <= 1e-9 * max(1, abs(e)))
    assert got[3] == expect[3]


def test_footnote_markers_are_kept_apart_from_the_number() -> None:
    assert split_footnotes("10 (1)") == ("10", ["1"])
    assert split_footnotes("2.5¹") == ("2.5", ["1"])
    assert split_footnotes("50*") == ("50", ["*"])
    pv = parse_value("12.5 (2)", "pF", "typ")
    assert pv is not None and pv.typ == pytest.approx(12.5e-12) and pv.footnotes == ["2"]


def test_not_values_are_not_read() -> None:
    for text in ("CMOS", "3000 g, 0.3 ms half sine", "—", "", "Bulk"):
        assert parse_value(text, "", "value") is None, text


def test_units_and_numbers() -> None:
    assert parse_unit("kΩ") == ("ohm", 1e3)
    assert parse_unit("KOHM") == ("ohm", 1e3)
    assert parse_unit("mΩ") == ("ohm", 1e-3) and parse_unit("MΩ") == ("ohm", 1e6)
    assert parse_unit("furlong") is None
    assert parse_number("2k2") == 2200.0 and parse_number("1,000") == 1000.0
    assert format_quantity(12.5e-12, "F") == "12.5 pF" and format_quantity(50e3, "ohm") == "50 kΩ"


def test_parameters_by_name_symbol_and_language() -> None:
    assert match_parameter("Load capacitance", "CL") == ("load_capacitance", True)
    assert match_parameter("负载电容", "") == ("load_capacitance", True)
    assert match_parameter("工作温度范围", "") == ("operating_temperature", True)
    assert match_parameter("Equivalent series resistance", "ESR") == ("esr", True)
    assert match_parameter("Static drain-source on-resistance", "") == ("rds_on", True)
    assert match_parameter("", "VGS(th)") == ("vgs_th", True)
    assert match_parameter("I2C bus clock frequency", "fSCL") == ("bus_clock_frequency", True)
    assert match_parameter("Gizmo factor", "GZ") == ("gizmo factor", False)  # kept under its printed name


def test_frequency_is_generic_only_whole() -> None:
    # "frequency" alone or a listed kind of it is the part's frequency; premodified it is another
    # quantity (a transistor's transition frequency, a filter's cut-off), kept under its own name
    assert match_parameter("Frequency", "") == ("frequency", True)
    assert match_parameter("Output frequency", "") == ("frequency", True)
    assert match_parameter("Nominal frequency", "f0") == ("frequency", True)
    assert match_parameter("Transition frequency", "fT", unit="Hz") == ("transition frequency", False)
    assert match_parameter("Cut-off frequency", "fc", unit="Hz") == ("cut off frequency", False)
    assert match_parameter("Frequency at the SCL pin", "", unit="Hz")[1] is False


def test_constraints_and_their_errors() -> None:
    c = parse_constraint("ESR <= 50 kohm")
    assert (c.parameter, c.op, c.value, c.unit) == ("esr", "<=", 50000.0, "ohm")
    c = parse_constraint("load capacitance = 12.5 pF")
    assert (c.parameter, c.op, c.unit) == ("load_capacitance", "=", "F") and c.value == pytest.approx(12.5e-12)
    c = parse_constraint("operating temperature = -40 to 85")
    assert (c.op, c.value, c.value2, c.unit) == ("range", -40.0, 85.0, "°C")
    for bad, msg in (
        ("ESR <= banana", "'banana' is not a number"),
        ("ESR <= 50 furlong", "unknown unit 'furlong'"),
        ("ESR <= 50 pF", "does not fit"),
        ("wobble < 3", "unknown parameter"),
        ("ESR", "expected PARAMETER OP VALUE"),
    ):
        with pytest.raises(InputError, match=msg) as e:
            parse_constraint(bad)
        assert "\n" not in str(e.value)


def test_natural_queries_are_read_and_shown_back() -> None:
    cons, ptype, rest = parse_query("32.768 kHz crystal ESR below 50k, 12.5 pF", ("crystal", "TCXO"))
    assert [describe_constraint(c) for c in cons] == [
        "esr <= 50 kΩ",
        "frequency = 32.768 kHz",
        "load_capacitance = 12.5 pF",
    ]
    assert ptype == "crystal" and rest == ""
    cons, ptype, _ = parse_query("工作温度 -40~85 的 TCXO", ("crystal", "TCXO"))
    assert [describe_constraint(c) for c in cons] == ["operating_temperature covers -40 to 85 °C"] and ptype == "TCXO"


def _v(**kw) -> SpecValue:
    base = {"doc_id": "d", "part": "P", "parameter": "esr", "parameter_printed": "ESR", "page": 1, "row_bbox_pdf": (0, 0, 1, 1)}
    return SpecValue(**{**base, **kw})


def test_checks_meet_fail_or_say_unknown() -> None:
    le = SpecConstraint(parameter="esr", op="<=", value=50e3, unit="ohm")
    assert check(le, [_v(max=40e3, unit="ohm")])[0] == "meets"
    assert check(le, [_v(typ=40e3, max=60e3, unit="ohm")])[0] == "fails"  # the worst case counts
    assert check(le, [])[0] == "unknown"  # a missing value is unknown, not a failure
    tol = SpecConstraint(parameter="frequency_tolerance", op="<=", value=20, unit="ppm")
    assert check(tol, [_v(parameter="frequency_tolerance", min=-10, max=10, unit="ppm")])[0] == "meets"
    rng = SpecConstraint(parameter="operating_temperature", op="range", value=-40, value2=85, unit="°C")
    assert check(rng, [_v(parameter="operating_temperature", min=-40, max=105, unit="°C")])[0] == "meets"
    assert check(rng, [_v(parameter="operating_temperature", min=-20, max=70, unit="°C")])[0] == "fails"


# --------------------------------------------------------------------------- the stage on generated datasheets
def _truth(served_data: Path) -> list[dict]:
    return [json.loads(x) for x in (served_data / "samples" / "specs_truth.jsonl").read_text(encoding="utf-8").splitlines() if x]


def test_spec_stage_reads_every_printed_value_with_its_cell(served_data: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from spec_extraction import evaluate

    r = evaluate(served_data, served_data / "samples", rechunk=False)
    assert r["truth_cells"] == len(_truth(served_data)) > 50
    assert r["recall"] >= 0.98, r["examples"]
    assert r["precision"] >= 0.98, r


def test_spec_values_are_stored_per_document_with_cell_boxes(served_data: Path) -> None:
    svc = LayoutRAG(served_data)
    truth = _truth(served_data)
    doc = truth[0]["doc"]
    values = svc.specs(doc)  # a file name or a doc id
    assert values and all(v.cells and v.chunk_id for v in values)
    doc_id = values[0].doc_id
    assert (served_data / "docs" / doc_id / "specs.json").exists()
    chunk_ids = {c.chunk_id for c in DocChunks.model_validate_json((served_data / "docs" / doc_id / "chunks.json").read_text()).chunks}
    assert {v.chunk_id for v in values} <= chunk_ids
    # table rows carry one box per cell, and a value's cell box is its column's box in its row
    for v in values:
        for cell in v.cells:
            x0, y0, x1, y1 = cell.bbox_pdf
            assert v.row_bbox_pdf.y0 - 1 <= y0 < y1 <= v.row_bbox_pdf.y1 + 1
    with pytest.raises(NotFoundError):
        svc.specs("nope.pdf")


def test_spec_stage_is_resumable(served_data: Path, tmp_path: Path) -> None:
    from layoutrag.build import build_specs

    data = tmp_path / "d"
    shutil.copytree(served_data / "docs", data / "docs")
    spec = next((data / "docs").glob("*/specs.json"))
    before = spec.stat().st_mtime_ns
    n_docs, n_values, errors = build_specs(data)
    assert n_docs >= 2 and n_values > 0 and not errors
    assert spec.stat().st_mtime_ns == before  # current: not rewritten
    spec.unlink()
    build_specs(data)
    assert spec.exists()


# --------------------------------------------------------------------------- search and compare
def test_find_parts_ranks_by_constraints_met_and_shows_evidence(served_data: Path) -> None:
    svc = LayoutRAG(served_data)
    truth = _truth(served_data)
    cl = next(t for t in truth if t["parameter"] == "load_capacitance" and t["role"] == "typ")
    want = f"load capacitance = {cl['value'] * 1e12:g} pF"
    res = svc.find_parts([want, "ESR <= 1 Mohm"])
    assert res.results
    top = res.results[0]
    assert top.n_met >= 1 and top.matches[0].status == "meets"
    v = top.matches[0].values[0]
    assert v.parameter == "load_capacitance" and v.cells[0].bbox_pdf
    met = [r.n_met for r in res.results]
    assert met == sorted(met, reverse=True)
    with pytest.raises(InputError):
        svc.find_parts([])
    with pytest.raises(InputError, match="unknown product type"):
        svc.find_parts(["ESR <= 1 Mohm"], product_type="banana")
    # a type the vocabulary knows but the library holds none of: said so, not left unread (the sample corpus is
    # crystals and oscillators) - by its name, by another of its words, and read from a natural query
    for kw in ({"product_type": "MOSFET"}, {"product_type": "LDO"}, {"query": "op amp supply voltage 5 V"}):
        with pytest.raises(InputError, match=r"^no (MOSFET|voltage regulator|operational amplifier) in this library "):
            svc.find_parts(["ESR <= 1 Mohm"] if "product_type" in kw else None, **kw)
    # --type by another of its words: 晶振 is a crystal
    assert svc.find_parts(["ESR <= 1 Mohm"], product_type="晶振").product_type == "crystal"
    png = svc.crop_png(v.doc_id, v.page, list(v.cells[0].bbox_pdf))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_compare_puts_parameters_in_rows_and_parts_in_columns(served_data: Path) -> None:
    svc = LayoutRAG(served_data)
    parts = sorted({t["part"] for t in _truth(served_data) if t["part"] and "-" in t["part"]})[:1]
    series = sorted({t["part"] for t in _truth(served_data)} - set(parts))[:1]
    cmp = svc.compare_parts([*series, *parts])
    assert cmp.parts == [*series, *parts] and cmp.rows
    assert all(len(r.cells) == 2 for r in cmp.rows)
    with pytest.raises(NotFoundError):
        svc.compare_parts(["NO-SUCH-PART-123"])


def test_http_api(served_data: Path) -> None:
    from fastapi.testclient import TestClient

    from layoutrag.serve.api import create_app

    client = TestClient(create_app(served_data))
    r = client.get("/api/specs", params={"where": ["ESR <= 1 Mohm"], "q": "12.5 pF"})
    assert r.status_code == 200
    assert r.json()["constraints_read"] == ["esr <= 1 MΩ", "load_capacitance = 12.5 pF"]
    r = client.get("/api/specs", params={"where": "ESR <= banana"})
    assert r.status_code == 422 and r.json() == {"error": "constraint 'ESR <= banana': 'banana' is not a number"}
    doc_id = client.get("/api/specs", params={"where": "ESR <= 1 Mohm"}).json()["results"][0]["doc_id"]
    r2 = client.get(f"/api/documents/{doc_id}/specs")
    assert r2.status_code == 200 and r2.json()["specs"]
    v = r2.json()["specs"][0]
    r3 = client.get(
        f"/api/documents/{doc_id}/crop.png",
        params={"page": v["page"], "bbox": ",".join(str(x) for x in v["cells"][0]["bbox_pdf"])},
    )
    assert r3.status_code == 200 and r3.headers["content-type"] == "image/png"
    r4 = client.get("/api/compare", params={"part": [v["part"]]})
    assert r4.status_code == 200 and r4.json()["rows"]


def test_cli(served_data: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "layoutrag.cli", *args, "--data", str(served_data)],
            capture_output=True,
            text=True,
            timeout=120,
        )

    doc = _truth(served_data)[0]["doc"]
    r = run("specs", doc, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)[0]["cells"]
    r = run("specs", "--where", "ESR <= 1 Mohm", "--query", "load capacitance below 30 pF")
    assert r.returncode == 0 and "constraints: esr <= 1 MΩ; load_capacitance <= 30 pF" in r.stdout
    r = run("specs", "--where", "ESR <= banana")
    assert r.returncode == 2 and r.stderr.strip() == "error: constraint 'ESR <= banana': 'banana' is not a number"
    series = _truth(served_data)[0]["part"]
    r = run("compare", series, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["parts"] == [series]


def test_a_supply_current_named_for_a_low_power_mode_is_the_standby_current() -> None:
    from layoutrag.specs import match_parameter

    assert match_parameter("Supply current in Standby mode")[0] == "standby_current"  # WCH's form
    assert match_parameter("Supply current (shutdown)")[0] == "standby_current"  # MPS's form
    assert match_parameter("Supply current in power-down mode", "IDD")[0] == "standby_current"
    assert match_parameter("Supply current")[0] == "supply_current"
    assert match_parameter("Operating current", "IDD")[0] == "supply_current"


def test_the_spec_file_carries_the_card_and_the_store_reads_it_without_the_chunks(served_data: Path, tmp_path: Path) -> None:
    # specs-45: the parametric store reads one small file per document; a spec file written before (no card) still loads
    import shutil

    from layoutrag.parametric import load_spec_store
    from layoutrag.records import DocChunks, DocSpecs
    from layoutrag.storage import DataDir

    data = DataDir(served_data)
    doc_id = next(iter(data.doc_ids()))
    ds = DocSpecs.model_validate_json((data.doc_dir(doc_id) / "specs.json").read_text(encoding="utf-8"))
    card = DocChunks.model_validate_json(data.chunks_json(doc_id).read_text(encoding="utf-8")).card
    assert ds.card == card
    copy = tmp_path / "data"
    shutil.copytree(served_data / "docs", copy / "docs")
    store = load_spec_store(DataDir(copy))
    assert store.cards[doc_id] == card and store.records(doc_id) == ds.specs
    # what matching reads of each value, and each record read back from it
    assert [(v.parameter, v.part, v.table, v.min, v.typ, v.max, v.unit) for v in store.specs[doc_id]] == [
        (v.parameter, v.part, v.table, v.min, v.typ, v.max, v.unit) for v in ds.specs
    ]
    assert [store.record(doc_id, v) for v in store.specs[doc_id]] == ds.specs
    # a card in the spec file is what the store uses: the chunks file is not parsed for it
    (copy / "docs" / doc_id / "chunks.json").write_text('{"not": "chunks"}', encoding="utf-8")
    assert load_spec_store(DataDir(copy)).cards[doc_id] == card
    # an older spec file without the card: the card from the chunks file, as before
    old = ds.model_copy(update={"card": None}).model_dump_json()
    (copy / "docs" / doc_id / "specs.json").write_text(old, encoding="utf-8")
    shutil.copy(data.chunks_json(doc_id), copy / "docs" / doc_id / "chunks.json")
    assert load_spec_store(DataDir(copy)).cards[doc_id] == card
    # a damaged spec file leaves its document out and the others in
    (copy / "docs" / doc_id / "specs.json").write_text('{"specs": [{"parameter": "esr", "min": "x"}]}', encoding="utf-8")
    store = load_spec_store(DataDir(copy))
    assert doc_id not in store.specs and len(store.specs) == len(list(data.doc_ids())) - 1


def test_find_parts_passes_over_documents_without_a_constrained_parameter_and_keeps_its_ranking(served_data: Path) -> None:
    from layoutrag.parametric import SpecStore, find_parts, load_spec_store
    from layoutrag.specs import parse_constraint
    from layoutrag.storage import DataDir

    store = load_spec_store(DataDir(served_data))
    cons = [parse_constraint("operating temperature = -40 to 85"), parse_constraint("ESR <= 1 Mohm")]
    full = find_parts(store, cons, limit=500)
    assert full.results and all(r.n_met >= 1 for r in full.results)
    ranks = [(-r.n_met, r.n_failed, r.n_unknown, r.file_name, r.part) for r in full.results]
    assert ranks == sorted(ranks)
    assert [r.model_dump() for r in find_parts(store, cons, limit=3).results] == [r.model_dump() for r in full.results[:3]]
    # a document with no value of either parameter is not a result (it meets nothing), with or without the shortcut
    empty = SpecStore({**store.cards}, {d: [v for v in vals if v.parameter not in ("operating_temperature", "esr")] for d, vals in store.specs.items()})
    assert find_parts(empty, cons).results == []


def test_load_specs_loads_the_store_once_per_generation(served_data: Path) -> None:
    # what `layoutrag serve` warms up before the first visitor asks
    svc = LayoutRAG(served_data)
    n = svc.load_specs()
    assert n == sum(1 for d in (served_data / "docs").iterdir() if (d / "specs.json").exists())
    store = svc._spec_store()
    assert svc.load_specs() == n and svc._spec_store() is store  # cached: not read again


def test_a_spec_file_rewritten_after_the_store_loaded_still_gives_each_value_its_own_record(
    served_data: Path, tmp_path: Path
) -> None:
    # `layoutrag specs --rebuild` while a server runs on the store it loaded: the records read back must be the values'
    from layoutrag.parametric import load_spec_store
    from layoutrag.records import DocSpecs
    from layoutrag.storage import DataDir

    copy = tmp_path / "data"
    shutil.copytree(served_data / "docs", copy / "docs")
    store = load_spec_store(DataDir(copy))
    doc_id = next(d for d, vals in store.specs.items() if len(vals) >= 2)
    path = copy / "docs" / doc_id / "specs.json"
    ds = DocSpecs.model_validate_json(path.read_text(encoding="utf-8"))
    path.write_text(ds.model_copy(update={"specs": ds.specs[::-1][:-1]}).model_dump_json(), encoding="utf-8")
    got = [store.record(doc_id, v) for v in store.specs[doc_id]]
    assert got[1:] == ds.specs[1:]  # found again in the reordered file
    assert (got[0].parameter, got[0].min, got[0].typ, got[0].max, got[0].cells) == (
        ds.specs[0].parameter, ds.specs[0].min, ds.specs[0].typ, ds.specs[0].max, []
    )  # gone from it: made from what the store holds, no other value's cells

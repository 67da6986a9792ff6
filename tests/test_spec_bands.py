"""Values printed per band of nominal frequency (a crystal's ESR by frequency range): read from the conditions, and
answering a parametric query or a compare column only at a frequency in their band."""

from __future__ import annotations

import math

import pytest

from layoutrag.parametric import SpecStore, _stored, compare_parts, find_parts
from layoutrag.records import Chunk, DocumentCard, SpecValue
from layoutrag.specs import asked_frequency, frequency_band, parse_constraint

MHZ = 1e6


@pytest.mark.parametrize(
    ("conditions", "spans"),
    [
        ("16~40MHz", [(16 * MHZ, 40 * MHZ, False, False)]),
        ("20 ～ 38 MHz", [(20 * MHZ, 38 * MHZ, False, False)]),
        ("1.000 MHz to 49.999 MHz", [(1 * MHZ, 49.999 * MHZ, False, False)]),
        (">40MHz", [(40 * MHZ, math.inf, True, False)]),
        ("f0 ≥ 40 MHz", [(40 * MHZ, math.inf, False, False)]),
        ("< 16 MHz", [(0.0, 16 * MHZ, False, True)]),
        ("16 MHz ≤ f0 < 24 MHz", [(16 * MHZ, 24 * MHZ, False, True)]),
        ("26、38.4MHz", [(26 * MHZ, 26 * MHZ, False, False), (38.4 * MHZ, 38.4 * MHZ, False, False)]),
        ("f0 = 19.2 MHz", [(19.2 * MHZ, 19.2 * MHZ, False, False)]),
        ("32.768 kHz", [(32768.0, 32768.0, False, False)]),
    ],
)
def test_a_band_of_nominal_frequency_is_read_from_the_conditions(conditions: str, spans: list) -> None:
    band = frequency_band(conditions)
    assert band is not None
    assert [(pytest.approx(a), pytest.approx(b) if b != math.inf else b, c, d) for a, b, c, d in band.spans] == spans


@pytest.mark.parametrize(
    "conditions",
    ["", "Fundamental", "-40~85°C", "@100MHz", "f0 = 26.000 MHz, no load", "VDD = 3.3 V", "12~16MHz, 16~20MHz"],
)
def test_no_band_where_the_conditions_name_none_or_two(conditions: str) -> None:
    """A test frequency among other conditions is no band; two different bands in one row are not guessed between."""
    assert frequency_band(conditions) is None


def test_band_ends_strict_and_inclusive() -> None:
    lower = frequency_band("16~40MHz")
    upper = frequency_band(">40MHz")
    assert lower is not None and upper is not None
    assert lower.holds(40 * MHZ) and not upper.holds(40 * MHZ)
    assert upper.holds(40.001 * MHZ) and not lower.holds(40.001 * MHZ)
    assert lower.holds(16 * MHZ) and not lower.holds(15.9 * MHZ)


def _value(parameter: str, mx: float | None, unit: str, conditions: str = "", *, lo: float | None = None,
           typ: float | None = None, part: str = "XC16", table: str = "characteristics", top: float = 0.0) -> SpecValue:
    return SpecValue(doc_id="d", part=part, parameter=parameter, parameter_printed=parameter, min=lo, typ=typ,
                     max=mx, unit=unit, conditions=conditions, page=1, row_bbox_pdf=(0, top, 1, top + 1),
                     chunk_id="c", table=table)


def _crystal(product_type: str = "crystal") -> SpecStore:
    values = [
        _value("frequency", 96 * MHZ, "Hz", lo=16 * MHZ),
        _value("esr", 100.0, "ohm", "16~20MHz", top=10),
        _value("esr", 80.0, "ohm", "20~60MHz", top=11),
        _value("esr", 30.0, "ohm", ">60MHz", top=12),
        _value("frequency", None, "Hz", typ=18 * MHZ, part="XC16-18.000", table="ordering", top=20),
        _value("frequency", None, "Hz", typ=70 * MHZ, part="XC16-70.000", table="ordering", top=21),
    ]
    card = DocumentCard(doc_id="d", file_name="xc16.pdf", series=["XC16"], product_type=product_type)
    return SpecStore({"d": card}, {"d": values})


def _status(store: SpecStore, *where: str) -> list[tuple[str, str, list[float | None]]]:
    res = find_parts(store, [parse_constraint(w) for w in where])
    return [(r.part, m.status, [v.max for v in m.values]) for r in res.results for m in r.matches if "esr" in m.constraint.lower()]


def test_a_query_at_one_frequency_reads_the_esr_of_that_band() -> None:
    store = _crystal()
    # 26 MHz lies in 20~60 MHz: 80 Ω, not the 30 Ω printed for above 60 MHz
    assert ("XC16", "fails", [80.0]) in _status(store, "frequency = 26 MHz", "ESR <= 60 ohm")
    assert ("XC16", "meets", [30.0]) in _status(store, "frequency = 70 MHz", "ESR <= 60 ohm")
    # no frequency asked: the series prints an ESR within the bound in some band
    assert _status(store, "ESR <= 60 ohm")[0] == ("XC16", "meets", [30.0])


def test_a_range_of_frequencies_asked_reads_the_bands_it_reaches() -> None:
    store = _crystal()
    # 20-30 MHz reaches 16~20 MHz (at 20 MHz) and 20~60 MHz: 100 and 80 ohm, not the 30 ohm above 60 MHz
    assert ("XC16", "fails", [100.0, 80.0]) in _status(store, "frequency = 20 to 30 MHz", "ESR <= 60 ohm")
    # 50-80 MHz reaches above 60 MHz: a part of the series there meets it
    assert ("XC16", "meets", [30.0]) in _status(store, "frequency = 50 to 80 MHz", "ESR <= 60 ohm")
    assert ("XC16", "meets", [30.0]) in _status(store, "frequency >= 61 MHz", "ESR <= 60 ohm")
    # below 20 MHz (20 excluded) reaches 16~20 MHz only; up to 20 MHz (included) 20~60 MHz too
    below = _status(store, "frequency < 20 MHz", "ESR <= 90 ohm")
    assert ("XC16-18.000", "fails", [100.0]) in below and not any(s == "meets" for _, s, _ in below)
    assert ("XC16", "meets", [80.0]) in _status(store, "frequency <= 20 MHz", "ESR <= 90 ohm")


@pytest.mark.parametrize(
    ("where", "span"),
    [
        (["frequency = 26 MHz"], (26 * MHZ, 26 * MHZ, False, False)),
        (["frequency = 20 to 30 MHz"], (20 * MHZ, 30 * MHZ, False, False)),
        (["frequency > 100 MHz"], (100 * MHZ, math.inf, True, False)),
        (["frequency >= 10 MHz", "frequency < 30 MHz"], (10 * MHZ, 30 * MHZ, False, True)),
        (["frequency = 20 to 30 MHz", "frequency = 26 MHz"], (26 * MHZ, 26 * MHZ, False, False)),
    ],
)
def test_the_frequencies_a_query_asks(where: list[str], span: tuple) -> None:
    band = asked_frequency([parse_constraint(w) for w in where])
    assert band is not None and band.spans == (span,)


def test_no_frequency_asked_or_none_that_meets_all() -> None:
    assert asked_frequency([parse_constraint("ESR <= 60 ohm")]) is None
    assert asked_frequency([parse_constraint("frequency = 26 MHz"), parse_constraint("frequency = 40 MHz")]) is None
    assert asked_frequency([parse_constraint("frequency > 30 MHz"), parse_constraint("frequency <= 30 MHz")]) is None


def test_an_ordering_code_of_one_frequency_has_its_bands_values() -> None:
    store = _crystal()
    for code, esr in (("XC16-18.000", [100.0]), ("XC16-70.000", [30.0])):
        cmp = compare_parts(store, [code])
        assert [v.max for row in cmp.rows if row.parameter == "esr" for v in row.cells[0]] == esr
    # the series itself prints a range of frequencies: every band shown
    cmp = compare_parts(store, ["XC16"])
    assert sorted(v.max for row in cmp.rows if row.parameter == "esr" for v in row.cells[0]) == [30.0, 80.0, 100.0]
    # asked without a frequency, the 70 MHz code meets ESR <= 60 ohm by its own band; the 18 MHz code does not
    parts = [(r.part, r.n_met) for r in find_parts(store, [parse_constraint("ESR <= 60 ohm")]).results]
    assert ("XC16-18.000", 1) not in parts


def test_a_test_frequency_restricts_nothing_outside_frequency_control_parts() -> None:
    """An LDO's or op amp's "frequency" (a switching frequency) and a row's "1 kHz" are no nominal-frequency band."""
    store = _crystal(product_type="operational amplifier")
    assert ("XC16", "meets", [30.0]) in _status(store, "frequency = 26 MHz", "ESR <= 60 ohm")


def test_the_compact_store_value_carries_its_band() -> None:
    raw = _value("esr", 80.0, "ohm", "20~60MHz").model_dump()
    stored = _stored(raw, 0)
    assert stored.band == frequency_band("20~60MHz")
    assert _stored(_value("esr", 80.0, "ohm").model_dump(), 0).band is None


def test_search_boost_reads_the_band_of_the_frequency_asked() -> None:
    """Search's constraint boost (index/spec_constraints.py) reads a crystal's values as parametric search does."""
    from types import SimpleNamespace

    from layoutrag.index.spec_constraints import boost_constraints

    head = "Parameters Symbol Min. Typ. Max. Units Notes Nominal Frequency F 16 ~ 96 MHz "
    texts = {
        "a": head + "Equivalent Series Resistance ESR - - 100 Ohm 16~20MHz - - 80 Ohm 20~60MHz - - 30 Ohm >60MHz",
        "b": head + "Equivalent Series Resistance ESR - - 50 Ohm 16~40MHz - - 40 Ohm >40MHz",
    }
    chunks = [
        Chunk(chunk_id=f"{d}_p1_b01", doc_id=d, page=1, block_type="electrical_specifications_table", native_text=t)
        for d, t in texts.items()
    ] + [Chunk(chunk_id="c_p1_b01", doc_id="c", page=1, block_type="text", native_text="Crystal units for automotive use")]

    def order(product_type: str, query: str) -> list[int]:
        cards = {d: DocumentCard(doc_id=d, product_type=product_type) for d in (*texts, "c")}
        index = SimpleNamespace(chunks=chunks, cards=cards)
        # the boost is a share of the leading candidates' score spread (1.0 here, to the third)
        return [i for i, _ in boost_constraints(index, query, [(0, 1.0), (1, 0.95), (2, 0.0)], weight=1.0)][:2]

    # at 26 MHz a's ESR is 80 ohm (20~60 MHz), b's 50 ohm: only b meets "ESR below 60 ohm" and moves ahead
    assert order("crystal", "crystal frequency 26 MHz, ESR below 60 ohm") == [1, 0]
    # at 70 MHz both meet both constraints: the order stays
    assert order("crystal", "crystal frequency 70 MHz, ESR below 60 ohm") == [0, 1]
    # no frequency asked (search reads a bare "26 MHz" as no constraint): a's 30 ohm band meets it as b does
    assert order("crystal", "26 MHz crystal ESR below 60 ohm") == [0, 1]
    # another product type: a row's frequencies restrict nothing
    assert order("operational amplifier", "crystal frequency 26 MHz, ESR below 60 ohm") == [0, 1]


def test_the_cli_names_the_band_a_value_was_read_at(tmp_path) -> None:  # noqa: ANN001 - pytest's tmp_path
    import json

    from typer.testing import CliRunner

    from layoutrag.build import import_chunks
    from layoutrag.cli import app

    text = ("Parameters Symbol Min. Typ. Max. Units Notes Nominal Frequency F 16 ~ 96 MHz Equivalent Series "
            "Resistance ESR - - 100 Ohm 16~20MHz - - 80 Ohm 20~60MHz - - 30 Ohm >60MHz")
    row = {"chunk_id": "xc_p1_b01", "doc_id": "xc", "page": 1, "block_type": "electrical_specifications_table",
           "toc_path": "ACME XC Series MHz Crystal", "bboxes_pdf": [[40.0, 100.0, 560.0, 420.0]], "native_text": text}
    (tmp_path / "c.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    import_chunks(tmp_path / "c.jsonl", tmp_path / "data")
    res = CliRunner().invoke(app, ["specs", "--where", "frequency = 26 MHz", "--where", "ESR <= 60 ohm",
                                   "--data", str(tmp_path / "data")])
    assert res.exit_code == 0, res.output
    fails = next(line for line in res.output.splitlines() if line.strip().startswith("fails"))
    assert "80 Ohm (20~60MHz)" in fails  # the band that holds 26 MHz, not the 30 ohm above 60 MHz
    cmp = CliRunner().invoke(app, ["compare", "XC", "--data", str(tmp_path / "data")], env={"COLUMNS": "160"})
    assert cmp.exit_code == 0 and ">60MHz" in cmp.output and "16~20MHz" in cmp.output, cmp.output

"""Domain vocabularies as data files: each loads, says where its entries come from, has no duplicate
or blank entry, and every entry works where the code uses it (card vendors, packages, standards,
product types; tokenizer units)."""

from __future__ import annotations

from importlib import resources

import pytest

from chunk_factory import make_document, make_element
from layoutrag import vocab
from layoutrag.chunking.card import _REFINE, _registry_names, _vendor, build_card, part_like_tokens
from layoutrag.index.tokenizer import PartAwareTokenizer, normalize_text
from layoutrag.records import Page

COLUMNS = {
    "vendors.tsv": 2,
    "product_types.tsv": 2,
    "packages.tsv": 1,
    "standards.tsv": 1,
    "units.tsv": 1,
    "spec_parameters.tsv": 4,
    "spec_units.tsv": 3,
    "symbol_encoding.tsv": 3,
}
CASE_SENSITIVE = {"spec_units.tsv"}  # mΩ and MΩ are two units


def _text(name: str) -> str:
    return (resources.files("layoutrag") / "data" / name).read_text(encoding="utf-8")


def test_files_are_the_listed_ones():
    assert set(COLUMNS) == set(vocab.FILES)


@pytest.mark.parametrize("name", vocab.FILES)
def test_every_file_opens_with_its_source(name):
    lines = _text(name).splitlines()
    header = lines[: next(i for i, x in enumerate(lines) if not x.startswith("#"))]
    assert len(header) >= 3, name  # what a line holds, where the entries come from, what order means
    assert any(line.startswith("# Source: ") for line in header), name


@pytest.mark.parametrize("name", vocab.FILES)
def test_every_file_has_unique_non_blank_entries(name):
    rows = [x.split("\t") for x in _text(name).splitlines() if x.strip() and not x.startswith("#")]
    assert rows, name
    assert all(len(r) == COLUMNS[name] and all(f and f == f.strip() for f in r) for r in rows), name
    keys = [r[0] if name in CASE_SENSITIVE else r[0].lower() for r in rows]
    assert len(keys) == len(set(keys)), [k for k in keys if keys.count(k) > 1]
    assert vocab.read_table(name, COLUMNS[name]) == tuple(tuple(r) for r in rows)


def test_loaders_return_the_files_in_order():
    assert list(vocab.vendors().items()) == [tuple(r) for r in vocab.read_table("vendors.tsv", 2)]
    assert vocab.product_types()[0] == (
        r"\b(?:vc)?tcxos?\b|temperature[- ]compensated crystal oscillator|温补晶振|温补晶体振荡器|温度补偿晶体振荡器", "TCXO"
    )
    assert vocab.package_prefixes()[:3] == ("SOT", "SOD", "SOIC")
    assert vocab.standard_prefixes()[0] == "J-STD"
    assert vocab.units()[:4] == ("ghz", "mhz", "khz", "hz")
    assert vocab.vendors() is vocab.vendors()  # read once
    with pytest.raises(TypeError):
        vocab.vendors()["x"] = "y"  # type: ignore[index]


def test_malformed_rows_are_refused_with_their_line():
    with pytest.raises(ValueError, match=r"t.tsv:3: duplicate entry 'a'"):
        vocab.parse_table("# c\na\tA\na\tB\n", 2, name="t.tsv")
    with pytest.raises(ValueError, match=r"t.tsv:1: expected 2"):
        vocab.parse_table("a\n", 2, name="t.tsv")
    with pytest.raises(ValueError, match=r"t.tsv:1: expected 1"):
        vocab.parse_table("qfn \n", 1, name="t.tsv")
    assert vocab.parse_table("# c\n\na\tA\n", 2) == (("a", "A"),)


def test_entries_have_the_form_their_matching_needs():
    # vendors are looked for in lower-cased text, units in normalize_text's output
    assert all(k == k.lower() for k in vocab.vendors())
    assert all(normalize_text(u) == u for u in vocab.units())
    units = vocab.units()  # a unit before any shorter unit it begins with (dbc/hz, dbc before db)
    assert not [(a, b) for i, a in enumerate(units) for b in units[i + 1 :] if b.startswith(a)]
    kinds = {kind for _, kind in vocab.product_types()}
    assert set(_REFINE) | {k for sub in _REFINE.values() for k in sub} <= kinds


def test_every_vendor_line_is_recognised():
    for printed, canon in vocab.vendors().items():
        found = _registry_names(f"Datasheet. {printed.upper()} series")
        if len(printed) >= 4 or " " in printed:  # short names only inside a company's own name
            assert found and vocab.vendors()[found[0][1]] == canon, printed
        else:
            assert not found, printed


def test_vendor_is_the_company_the_document_names_as_its_own():
    assert _vendor("Texas Instruments Incorporated. Dallas, Texas") == "Texas Instruments"
    assert _vendor("Post Office Box 655303, Dallas, Texas 75265") == ""  # a common word alone is no vendor
    assert _vendor("Copyright © 2008 by Analog Devices, Inc. All rights reserved.") == "Analog Devices"
    # a company no registry knows, by its copyright line and its legal form
    assert _vendor("© 2019 Qorvix Timing Co., Ltd. All rights reserved.") == "Qorvix Timing"
    assert _vendor("深圳市晶科鑫实业有限公司 版权所有") == "深圳市晶科鑫实业"
    # the copyright holder and the legal name are one company, named as it names itself in full
    text = "© CLIFF Issue 3\nCliff Electronic Components Limited, Kent\n© CLIFF Issue 3\nMurata"
    assert _vendor(text) == "Cliff Electronic Components"
    # acronyms and generic words are never a vendor in free text
    assert _vendor("DSP core with MMC interface; Microelectronics; Semiconductor") == ""
    # without a company of its own, the registry name printed most often
    assert _vendor("muRata filter. Murata Manufacturing part; see Murata") == "Murata"
    assert _vendor("copyright or other intellectual property right") == ""


def _doc(texts: list[str]):
    els = [
        make_element("d", 1, i, "text", (40, 300 + 20 * i, 550, 316 + 20 * i), t) for i, t in enumerate(texts)
    ]
    return make_document("d", [Page(page=1, width_pt=595, height_pt=842, elements=els)], file_name="x.pdf")


def test_card_names_the_vendor_and_type_printed():
    card = build_card(_doc(["RF Transformer T2-613-1-KK81", "© Mini-Circuits, Brooklyn, New York"]), "", [])
    assert card.vendor == "Mini-Circuits"
    assert card.product_type == "transformer"


def test_every_package_and_standard_prefix_is_no_part_number():
    assert part_like_tokens(" ".join(f"{p}-14" for p in vocab.package_prefixes())) == []
    assert part_like_tokens(" ".join(f"{s}-1234" for s in vocab.standard_prefixes())) == []
    assert part_like_tokens("QFN32 AEC-Q200 QX9800A") == ["QX9800A"]


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Supply voltage 1.8V~3.3V", ["1.8v", "3.3v", "1.8", "3.3", "v", "supply", "voltage"]),
        ("-40 to +85 °C", ["-40°c", "85°c", "-40", "85", "°c"]),
        (
            "Phase noise -150 dBc/Hz, 10 kHz to 20 MHz",
            ["10000hz", "20000000hz", "10", "20", "mhz", "-150dbc/hz", "-150", "dbc/hz", "phase", "noise"],
        ),
    ],
)
def test_unit_ranges_tokenize_as_before(text, tokens):
    assert PartAwareTokenizer().tokenize(text) == tokens


def test_every_unit_makes_a_value_token():
    t = PartAwareTokenizer()
    for unit in vocab.units():
        toks = t.tokenize(f"x 12 {unit}")
        assert toks[1:3] == ["12", unit], unit  # the value token first, then the number and the unit

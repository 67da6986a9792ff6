"""specs-26, on pages printed here. dash-leaders: a run of six or more hyphens is a ratings list's
leader as dots are ("Supply Input Voltage -------- -0.3V to 6.0V"), the value's minus sign kept.
figure-leaders: a dot- or dash-leader list the layout model took for (a part of) a figure is read
as the same list printed as text, its own heading lines saying, line by line, which values are
ratings and which operating conditions."""

from __future__ import annotations

import re

import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import printed_words
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, Chunk, DocumentCard, Region, Word

CARD = DocumentCard(doc_id="d", file_name="buck.pdf", series=["XY8089"], part_numbers=["XY8089"])
DASH = "-" * 40

# a pinout drawing above the ratings, all of it one figure to the layout model
PAGE = [
    (60, 90, "Pinout (top view)"),
    (60, 104, "EN 1 5 FB"),
    (60, 140, "Absolute Maximum Ratings (Note 1)"),
    (62, 154, f"Supply Voltage {DASH}  -0.3V to 6.0V"),
    (62, 166, f"Junction Temperature Range {DASH}  -40°C to 150°C"),
    (62, 178, f"Storage Temperature Range {DASH}  -65°C to 150°C"),
    (60, 200, "Recommended Operating Conditions (Note 3)"),
    (62, 214, f"Junction Temperature Range {DASH}  -40°C to 125°C"),
    (62, 226, f"Ambient Temperature Range {DASH}  -40°C to 85°C"),
]


Line = tuple[float, float, str]


def _words(page: list[Line] = PAGE) -> list[Word]:
    return printed_words(page)


def _figure(page: list[Line] = PAGE) -> Chunk:
    text = "\n".join(t for _, _, t in page)
    return Chunk(chunk_id="d_p1_b00", doc_id="d", page=1, block_type="figure", rows=[], native_text=text,
                 regions=[Region(page=1, bbox_pdf=Box(50, 70, 560, 240), label="figure")])


def _read(page: list[Line] = PAGE) -> set[tuple[str, float | None, float | None, str]]:
    words = _words(page)
    return {(v.parameter, v.min, v.max, v.table) for v in extract_specs(CARD, [_figure(page)], lambda p: words)}


def test_a_dash_leader_list_in_a_figure_is_read_with_its_headings() -> None:
    assert _read() == {
        ("supply_voltage", -0.3, 6.0, "ratings"),  # the minus after the leader's space is the value's
        ("junction_temperature", -40.0, 150.0, "ratings"),
        ("storage_temperature", -65.0, 150.0, "ratings"),
        ("junction_temperature", -40.0, 125.0, "characteristics"),  # under the conditions heading
        ("operating_temperature", -40.0, 85.0, "characteristics"),
    }


def test_the_value_cell_box_lies_right_of_the_leader() -> None:
    words = _words()
    got = extract_specs(CARD, [_figure()], lambda p: words)
    assert len(got) == 5
    dashes = [w for w in words if set(w.text) == {"-"} and len(w.text) >= 6]
    for v in got:
        box = v.cells[0].bbox_pdf
        leader = next(w for w in dashes if abs(w.bbox_pdf.y0 - box.y0) < 2)
        assert box.x0 >= leader.bbox_pdf.x1 - 0.5
        assert any(w.bbox_pdf.x0 >= box.x0 - 0.5 and w.bbox_pdf.x1 <= box.x1 + 0.5 for w in words if w.text.endswith("C") or w.text.endswith("V"))


def test_a_dash_run_against_a_number_gives_it_no_sign() -> None:
    t = f"Thermal Resistance {DASH}130°C/W"
    leaders = list(stage._LEADER_RE.finditer(t))
    assert t[leaders[-1].end():] == "130°C/W"
    assert not stage._LEADER_RE.search("Input Voltage -0.3 - 6 V")  # a minus and a dash are not a leader


def test_figure_leaders_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "FIGURE_LEADERS", False)
    assert _read() == set()


def test_dash_leaders_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "_LEADER_RE", re.compile(stage._DOT_LEADER))
    monkeypatch.setattr(stage, "_LEADER_LINE_RE", re.compile(r"(?:" + stage._DOT_LEADER + r")[^\n]*\d"))
    assert _read() == set()


def test_dots_in_a_figure_are_read_too() -> None:
    dotted = [(x, y, t.replace(DASH, "." * 40)) for x, y, t in PAGE]
    assert ("storage_temperature", -65.0, 150.0, "ratings") in _read(dotted)

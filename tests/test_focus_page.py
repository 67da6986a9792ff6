"""A unit spanning pages (a table continued over a page break) is returned at the page of the asked row."""

from __future__ import annotations

import pytest

from layoutrag.index.hits import split_at_page
from layoutrag.index.hybrid import HybridIndex
from layoutrag.index.options import SearchOptions
from layoutrag.records import Chunk, DocumentCard, EvidencePackage, Region, TableRow

P1_TABLE = (40.0, 500.0, 550.0, 780.0)
P2_TABLE = (40.0, 60.0, 550.0, 200.0)


def _corpus() -> tuple[list[Chunk], dict[str, DocumentCard]]:
    card = DocumentCard(doc_id="dx", file_name="XT9.pdf", title="XT9 crystal oscillator", series=["XT9"],
                        part_numbers=["XT9-25"])
    table = Chunk(
        chunk_id="dx_p1_b02",
        doc_id="dx",
        page=1,
        block_type="table",
        section_title="Electrical characteristics",
        native_text="XT9 electrical characteristics. Frequency stability ±20 ppm. Supply current 3 mA. "
        "Phase jitter 0.3 ps. Aging ±3 ppm per year.",
        bboxes_pdf=[P1_TABLE],
        regions=[Region(page=1, bbox_pdf=P1_TABLE, label="table"), Region(page=2, bbox_pdf=P2_TABLE, label="table")],
        rows=[
            TableRow(page=1, bbox_pdf=(40, 500, 550, 520), cells=["Parameter", "Max"], is_header=True),
            TableRow(page=1, bbox_pdf=(40, 520, 550, 540), cells=["Frequency stability XT9", "±20 ppm"]),
            TableRow(page=1, bbox_pdf=(40, 540, 550, 560), cells=["Supply current XT9", "3 mA"]),
            TableRow(page=2, bbox_pdf=(40, 60, 550, 80), cells=["Phase jitter", "0.3 ps"]),
            TableRow(page=2, bbox_pdf=(40, 80, 550, 100), cells=["Aging", "±3 ppm per year"]),
        ],
    )
    other = Chunk(
        chunk_id="dx_p1_b00", doc_id="dx", page=1, block_type="text", bboxes_pdf=[(40, 60, 550, 120)],
        native_text="XT9 features: low power, small package, industrial temperature range.",
    )
    return [table, other], {"dx": card}


@pytest.fixture(scope="module")
def index() -> HybridIndex:
    chunks, cards = _corpus()
    return HybridIndex.build(chunks, cards)


def _table_hit(hits: list[EvidencePackage]) -> EvidencePackage:
    return next(h for h in hits if h.chunk_id == "dx_p1_b02")


def test_the_hit_is_the_part_on_the_page_of_the_asked_row(index: HybridIndex) -> None:
    hit = _table_hit(index.search("XT9 phase jitter", top_k=5, options=SearchOptions(mode="bm25")))
    assert hit.page == 2
    assert [(r.page, r.bbox_pdf) for r in hit.all_regions()] == [(2, P2_TABLE)]
    assert hit.bboxes_pdf == [P2_TABLE]
    assert hit.matched_row is not None and hit.rows[hit.matched_row].cells[0] == "Phase jitter"
    rest = hit.companions[0]
    assert rest.chunk_id == hit.chunk_id and rest.page == 1 and rest.matched_row is None
    assert [(r.page, r.bbox_pdf) for r in rest.all_regions()] == [(1, P1_TABLE)]
    # nothing of the unit is lost: the hit and its companion show all of it
    assert sorted((r.page, r.bbox_pdf) for r in hit.hit_regions()) == [(1, P1_TABLE), (2, P2_TABLE)]


def test_a_row_on_the_first_page_keeps_the_first_page(index: HybridIndex) -> None:
    hit = _table_hit(index.search("XT9 supply current", top_k=5, options=SearchOptions(mode="bm25")))
    assert hit.page == 1 and {r.page for r in hit.all_regions()} == {1}
    assert {r.page for r in hit.companions[0].all_regions()} == {2}


def test_the_documents_own_names_do_not_choose_the_page(index: HybridIndex) -> None:
    # "XT9" is in page-1 rows only; it names the document, not a row: no row holds another term
    hit = _table_hit(index.search("XT9 electrical characteristics", top_k=5, options=SearchOptions(mode="bm25")))
    assert {r.page for r in hit.all_regions()} == {1, 2} and not hit.companions


def test_focus_page_off_returns_the_unit_whole(index: HybridIndex) -> None:
    hits_cfg = index.settings.hits.model_copy(update={"focus_page": False})
    opts = SearchOptions(mode="bm25", hits=hits_cfg)
    hit = _table_hit(index.search("XT9 phase jitter", top_k=5, options=opts))
    assert hit.page == 1 and {r.page for r in hit.all_regions()} == {1, 2} and not hit.companions


def test_split_at_page_without_a_region_there_changes_nothing() -> None:
    chunks, _ = _corpus()
    pkg = EvidencePackage(**chunks[0].model_dump(), score=1.0)
    lead, rest = split_at_page(pkg, 3)
    assert lead is pkg and rest is None
    one_page = EvidencePackage(**chunks[1].model_dump(), score=1.0)
    assert split_at_page(one_page, 1) == (one_page, None)


def test_one_part_a_hit_when_a_hit_holds_one_chunk(index: HybridIndex) -> None:
    opts = SearchOptions(mode="bm25", hits=index.settings.hits.model_copy(update={"page_members": 1}))
    hit = _table_hit(index.search("XT9 phase jitter", top_k=5, options=opts))
    assert hit.page == 2 and {r.page for r in hit.hit_regions()} == {2} and not hit.companions


def test_a_row_is_found_by_another_name_of_its_parameter(monkeypatch: pytest.MonkeyPatch) -> None:
    # "long term stability" is a name of the `aging` parameter in data/spec_parameters.tsv: the row
    # printed "Aging" on page 2 is the one asked for (a note elsewhere prints the words, so the
    # index knows them; the "Frequency stability" row holds one of them)
    def corpus() -> tuple[list[Chunk], dict[str, DocumentCard]]:
        chunks, cards = _corpus()
        note = Chunk(
            chunk_id="dx_p3_b00", doc_id="dx", page=3, block_type="text", bboxes_pdf=[(40, 60, 550, 120)],
            native_text="Long term behaviour: the term of use affects the reference.",
        )
        return [*chunks, note], cards

    hit = _table_hit(HybridIndex.build(*corpus()).search("XT9 long term stability", top_k=5,
                                                          options=SearchOptions(mode="bm25")))
    assert hit.matched_row is not None and hit.rows[hit.matched_row].cells[0] == "Aging"
    assert hit.page == 2
    # without the parameter's names the row holds none of the query's words: the stability row
    import layoutrag.index.candidates as candidates

    monkeypatch.setattr(candidates, "ROW_PARAMETER_NAMES", False)
    hit = _table_hit(HybridIndex.build(*corpus()).search("XT9 long term stability", top_k=5,
                                                          options=SearchOptions(mode="bm25")))
    assert hit.matched_row is not None and hit.rows[hit.matched_row].cells[0] == "Frequency stability XT9"
    assert hit.page == 1


def test_a_query_naming_a_parameter_also_asks_for_its_other_names(monkeypatch: pytest.MonkeyPatch) -> None:
    from layoutrag.index import base
    from layoutrag.specs import parameters_named

    assert parameters_named("XT9 工作电流是多少") == ["supply_current"]
    assert parameters_named("ESR and load capacitance of 7M-26.000MAAJ-T") == ["esr", "load_capacitance"]
    assert parameters_named("XT9 pin description") == []
    # a page that prints "Current consumption" is found by "operating current" at the chunk level
    card = DocumentCard(doc_id="dy", file_name="YT1.pdf", title="YT1 RTC module", part_numbers=["YT1"])
    chunks = [
        Chunk(chunk_id="dy_p1_b00", doc_id="dy", page=1, block_type="table", bboxes_pdf=[(40, 60, 550, 200)],
              native_text="YT1 current consumption 45 uA. Timekeeping voltage 1.3 V."),
        Chunk(chunk_id="dy_p1_b01", doc_id="dy", page=1, block_type="text", bboxes_pdf=[(40, 220, 550, 300)],
              native_text="YT1 operating modes: the oscillator keeps running in every mode of operation."),
    ]
    ix = HybridIndex.build(chunks, {"dy": card})
    lex = ix.lexical_query("YT1 operating current")
    # the parameter's other names join the query, together weighing like one expansion (2 terms)
    added = {t: w for t, w in lex.items() if t in ("consumption", "supply", "power", "idd", "icc")}
    assert set(added) >= {"consumption", "supply"} and 0 < sum(added.values()) <= base.EXPANSION_TOKENS + 1e-9
    top = ix.search("YT1 operating current", top_k=1, options=SearchOptions(mode="bm25"))[0]
    assert top.chunk_id == "dy_p1_b00"
    monkeypatch.setattr(base, "PARAMETER_EXPANSION", False)
    assert "consumption" not in ix.lexical_query("YT1 operating current")
    top = ix.search("YT1 operating current", top_k=1, options=SearchOptions(mode="bm25"))[0]
    assert top.chunk_id == "dy_p1_b01"  # "operating" alone leads to the modes paragraph

"""BM25, RRF, query understanding and hybrid search on a small hand-made datasheet corpus."""

from __future__ import annotations

import copy
import math
from collections import Counter

import numpy as np
import pytest
from pydantic import ValidationError

from layoutrag.config import FusionSettings, FusionStrategy
from layoutrag.errors import InputError
from layoutrag.index.bm25 import BM25Index, count_terms, top_k
from layoutrag.index.fusion import fuse, rrf_fuse
from layoutrag.index.glossary import Glossary, expand_query, load_glossary
from layoutrag.index.hybrid import HybridIndex
from layoutrag.index.options import SearchOptions
from layoutrag.index.query import CardMatcher, is_searchable, normalize_query, query_codes
from layoutrag.records import Chunk, DocumentCard, SearchFilters, TableRow
from layoutrag.service import validate_query

# --------------------------------------------------------------------------- BM25


def test_bm25_hand_computed() -> None:
    docs = [["a", "b", "a"], ["b", "c"], ["c", "c", "c", "d"]]
    idx = BM25Index(count_terms(docs), k1=1.5, b=0.75)
    ids, scores = idx.scores(["a", "c"])
    got = dict(zip(ids.tolist(), scores.tolist(), strict=True))
    avgdl = 3.0  # (3 + 2 + 4) / 3
    idf_a = math.log(1 + (3 - 1 + 0.5) / (1 + 0.5))
    idf_c = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))

    def w(tf: int, dl: int, idf: float) -> float:
        return idf * tf * 2.5 / (tf + 1.5 * (1 - 0.75 + 0.75 * dl / avgdl))

    assert got[0] == pytest.approx(w(2, 3, idf_a), rel=1e-6)
    assert got[1] == pytest.approx(w(1, 2, idf_c), rel=1e-6)
    assert got[2] == pytest.approx(w(3, 4, idf_c), rel=1e-6)
    assert idx.scores(["zzz"])[0].size == 0


def _reference_bm25(docs: list[list[str]], query: list[str], k1: float = 1.5, b: float = 0.75) -> list[float]:
    """A direct transcription of the formula (dict loops), the reference for the sparse version."""
    n = len(docs)
    avgdl = sum(map(len, docs)) / n
    df = Counter(t for d in docs for t in set(d))
    out = []
    for d in docs:
        tf = Counter(d)
        s = 0.0
        for t in query:
            if t in tf:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                s += idf * tf[t] * (k1 + 1) / (tf[t] + k1 * (1 - b + b * len(d) / avgdl))
        out.append(s)
    return out


def test_bm25_matches_reference_on_random_corpus() -> None:
    rng = np.random.default_rng(7)
    vocab = [f"t{i}" for i in range(40)]
    docs = [list(rng.choice(vocab, size=int(rng.integers(1, 30)))) for _ in range(60)]
    query = ["t1", "t5", "t5", "t17", "nope"]
    ref = _reference_bm25(docs, query)
    idx = BM25Index(count_terms(docs), k1=1.5, b=0.75)
    ids, scores = idx.scores(query)
    got = np.zeros(len(docs))
    got[ids] = scores
    np.testing.assert_allclose(got, ref, rtol=1e-5)


def test_top_k_ties_by_index() -> None:
    scores = np.array([1.0, 3.0, 3.0, 2.0, 3.0])
    assert top_k(scores, 3).tolist() == [1, 2, 4]
    assert top_k(scores, 10).tolist() == [1, 2, 4, 3, 0]


# --------------------------------------------------------------------------- fusion


def test_rrf_hand_computed() -> None:
    bm25 = ["a", "b", "c"]
    dense = ["c", "a", "d"]
    fused = rrf_fuse([bm25, dense], k=60)
    expect = {
        "a": 1 / 61 + 1 / 62,
        "b": 1 / 62,
        "c": 1 / 63 + 1 / 61,
        "d": 1 / 63,
    }
    assert [x for x, _ in fused] == ["a", "c", "b", "d"]
    for item, score in fused:
        assert score == pytest.approx(expect[item])


def test_rrf_ties_broken_by_id() -> None:
    fused = rrf_fuse([["z", "y"], ["y", "z"]], k=60)
    assert [x for x, _ in fused] == ["y", "z"]  # equal scores -> id ascending


def test_weighted_fusion_depth_limits_dense() -> None:
    cfg = FusionSettings(strategy=FusionStrategy.weighted, dense_weight=0.5, dense_depth=2)
    fused = dict(fuse(["a", "b"], ["c", "d", "e"], k=60, config=cfg))
    assert fused["a"] == pytest.approx(1 / 61)
    assert fused["c"] == pytest.approx(0.5 / 61)
    assert "e" not in fused  # beyond the dense depth
    plain = dict(fuse(["a"], ["e"], k=60, config=FusionSettings(strategy=FusionStrategy.rrf)))
    assert plain["e"] == pytest.approx(1 / 61)
    # no lexical evidence at all: the dense run decides alone
    assert [x for x, _ in fuse([], ["c", "d"], k=60, config=cfg)] == ["c", "d"]
    with pytest.raises(ValidationError, match="'rrf', 'weighted' or 'learned'"):
        FusionSettings(strategy="borda")


# --------------------------------------------------------------------------- glossary and query codes


def test_glossary_expands_both_ways() -> None:
    assert len(load_glossary()) >= 300
    assert "load capacitance" in expand_query("负载电容是多少")
    assert "phase noise" in expand_query("相位噪声低的晶振")
    assert "负载电容" in expand_query("load capacitance of the 7M")


def test_glossary_entry_without_chinese_is_one_way() -> None:
    """A left-column entry without Chinese ("GPS<TAB>TCXO") is a one-way hint: a GPS question gains
    TCXO, but a TCXO question does not gain GPS; Chinese entries translate both ways."""
    g = Glossary([("GPS", "TCXO"), ("温补晶振", "TCXO")])
    assert "TCXO" in g.expansions("GPS 用的晶振")
    assert [t for t in g.expansions("DSB321SDN TCXO start-up time")] == ["温补晶振"]


def test_query_codes_and_card_matching() -> None:
    cards = {
        "a": DocumentCard(doc_id="a", title="TXC 7M Series", series=["7M"], part_numbers=["7M-26.000MAAJ-T"]),
        "b": DocumentCard(doc_id="b", series=["SiT5358"], part_numbers=["SiT5358AI-FQ033IT-19.200000"]),
    }
    m = CardMatcher(cards)
    assert m.match("7M26000MAAJT esr") == {"a": 1.0}
    assert m.match("7m 26.000 maaj t") == {"a": 1.0}  # spaces for separators
    assert m.match("7m_26-000/maaj.t") == {"a": 1.0}
    assert m.match("sit5358ai-fq033it") == {"b": 0.8}  # a partial part number
    assert m.match("SiT5358AC-XXXX load") == {"b": 0.8}  # the series heads an unknown full number
    assert m.match("32.768kHz crystal") == {}
    assert "7m26000maajt" in query_codes("7M 26.000 MAAJ T")


# --------------------------------------------------------------------------- hybrid search

PARTS = {
    "d7m": ("TXC 7M Series Crystal", "7M-26.000MAAJ-T", "7M"),
    "dsit": ("SiTime SiT5358 Super-TCXO", "SiT5358AI-FQ033IT-19.200000", "SiT5358"),
    "datx": ("Abracon ATX-11 TCXO", "ATX-11-F-27.000MHZ-F05-T", "ATX-11"),
    "dfa": ("Epson FA-128 Crystal Unit", "FA-128 24.0000MF10Z-AC3", "FA-128"),
    "drv": ("Micro Crystal RV-3032-C7 Real-Time Clock", "RV-3032-C7 TA QC", "RV-3032-C7"),
}


def corpus() -> tuple[list[Chunk], dict[str, DocumentCard]]:
    chunks, cards = [], {}
    for i, (doc, (title, part, series)) in enumerate(PARTS.items()):
        cards[doc] = DocumentCard(
            doc_id=doc, file_name=f"{series}.pdf", title=title, series=[series], part_numbers=[part]
        )
        esr = 40 + 10 * i
        chunks += [
            Chunk(
                chunk_id=f"{doc}_p1_b00",
                doc_id=doc,
                page=1,
                block_type="text",
                section_title="Features",
                toc_path=f"{title} > Features",
                native_text=f"{title}. Features: low jitter, high stability, operating temperature -40 to +85 °C.",
            ),
            Chunk(
                chunk_id=f"{doc}_p1_b01",
                doc_id=doc,
                page=1,
                block_type="table",
                section_title="Electrical Characteristics",
                toc_path=f"{title} > Electrical Characteristics",
                native_text=(
                    f"Load capacitance CL 12 pF. Equivalent series resistance ESR {esr} Ω max. "
                    "Drive level 10 µW. Aging ±3 ppm first year."
                ),
                rows=[
                    TableRow(
                        page=1, bbox_pdf=(50, 100, 500, 110), cells=["Parameter", "Max"], is_header=True
                    ),
                    TableRow(page=1, bbox_pdf=(50, 110, 500, 120), cells=["Load capacitance CL", "12 pF"]),
                    TableRow(
                        page=1,
                        bbox_pdf=(50, 120, 500, 130),
                        cells=["Equivalent series resistance ESR", f"{esr} Ω"],
                    ),
                    TableRow(page=1, bbox_pdf=(50, 130, 500, 140), cells=["Drive level", "10 µW"]),
                ],
            ),
            Chunk(
                chunk_id=f"{doc}_p2_b00",
                doc_id=doc,
                page=2,
                block_type="figure",
                section_title="Recommended Land Pattern",
                toc_path=f"{title} > Package",
                native_text="Recommended land pattern (solder pad layout), dimensions in mm.",
            ),
            Chunk(
                chunk_id=f"{doc}_p2_b01",
                doc_id=doc,
                page=2,
                block_type="page_footer",
                native_text="www.example.com",
                indexed=False,
            ),
        ]
    return chunks, cards


@pytest.fixture(scope="module")
def hybrid() -> HybridIndex:
    chunks, cards = corpus()
    return HybridIndex.build(chunks, cards)  # the real default (bundled) embedder


@pytest.mark.parametrize(
    ("query", "doc"),
    [
        ("7M-26.000MAAJ-T ESR", "d7m"),
        ("7m26000maajt ESR", "d7m"),
        ("7M 26.000 MAAJ T load capacitance", "d7m"),
        ("sit5358ai fq033it 19.2 aging", "dsit"),
        ("ATX11F27.000MHZ-F05T drive level", "datx"),
        ("atx 11 f 27000mhz f05 t", "datx"),
        ("FA128 land pattern", "dfa"),
        ("RV3032C7 推荐焊盘", "drv"),
    ],
)
def test_part_numbers_with_altered_separators_find_the_document(
    hybrid: HybridIndex, query: str, doc: str
) -> None:
    hits = hybrid.search(query, top_k=5)
    assert hits and hits[0].doc_id == doc
    for mode in ("bm25", "fused"):
        assert hybrid.search(query, top_k=3, mode=mode)[0].doc_id == doc


def test_hits_are_evidence_packages_with_both_paths(hybrid: HybridIndex) -> None:
    hits = hybrid.search("RV-3032-C7 equivalent series resistance ESR", top_k=15)
    top = hits[0]
    assert top.chunk_id == "drv_p1_b01"
    assert top.bm25_rank == 1 and top.bm25_score and top.bm25_score > 0
    assert top.dense_rank is not None and top.dense_score is not None
    assert top.rows[top.matched_row or 0].cells[0].startswith("Equivalent series resistance")
    assert all(h.chunk_id != "drv_p2_b01" for h in hits)  # not indexed
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    dense_only = hybrid.search("crystal", top_k=4, mode="dense")
    # companions (more blocks of a hit's page, returned with it) rank behind their lead
    assert dense_only[0].dense_rank == 1
    assert [h.dense_rank for h in dense_only] == sorted(h.dense_rank for h in dense_only)
    assert all(c.dense_rank > h.dense_rank for h in dense_only for c in h.companions)
    assert all(x.bm25_rank is None for h in dense_only for x in (h, *h.companions))


def test_chinese_question_reaches_english_chunk(hybrid: HybridIndex) -> None:
    hits = hybrid.search("FA-128 负载电容是多少", top_k=3, mode="bm25")
    assert hits[0].chunk_id == "dfa_p1_b01"
    hits = hybrid.search("焊盘尺寸", top_k=5, mode="bm25")
    assert {h.block_type for h in hits} == {"figure"}


def test_filters(hybrid: HybridIndex) -> None:
    f = SearchFilters(doc_id="dsit", block_type="figure")
    hits = hybrid.search("land pattern", top_k=10, filters=f)
    assert [h.chunk_id for h in hits] == ["dsit_p2_b00"]
    hits = hybrid.search("crystal", top_k=20, filters=SearchFilters(page_min=2, page_max=2))
    assert hits and all(h.page == 2 for h in hits)
    assert hybrid.search("crystal", filters=SearchFilters(doc_id="unknown")) == []


@pytest.mark.parametrize("query", ["", "   ", "!!! ??? ...", "\x00\x01\x02", "—·…"])
def test_unsearchable_queries_give_empty_results(hybrid: HybridIndex, query: str) -> None:
    assert hybrid.search(query) == []


def test_bad_queries_raise_clear_errors(hybrid: HybridIndex) -> None:
    with pytest.raises(InputError, match="query too long"):
        hybrid.search("x" * 10_000)
    with pytest.raises(InputError, match="unknown search mode"):
        hybrid.search("crystal", mode="magic")
    with pytest.raises(InputError, match="top_k"):
        hybrid.search("crystal", top_k=0)
    hits = hybrid.search("ESR\x00\x07 FA-128\n", top_k=2)  # control characters are blanked, not fatal
    assert hits[0].doc_id == "dfa"


@pytest.mark.parametrize(
    ("raw", "cleaned"),
    [
        ("  ESR\x00\x07 FA-128\n", "ESR FA-128"),
        ("a\u3000\tb\r\nc", "a b c"),
        ("工作温度范围", "工作温度范围"),
        ("!!! ???", "!!! ???"),
        ("\x00\x01\x02", ""),
        ("   ", ""),
    ],
)
def test_query_normalisation_is_shared_by_service_and_index(
    hybrid: HybridIndex, raw: str, cleaned: str
) -> None:
    limit = hybrid.settings.search.max_query_chars
    assert normalize_query(raw, max_chars=limit) == cleaned
    if cleaned:
        assert validate_query(raw, max_chars=limit) == cleaned
    else:
        with pytest.raises(InputError, match="^empty query$"):
            validate_query(raw, max_chars=limit)
    hits = [h.chunk_id for h in hybrid.search(raw, top_k=3)]
    assert hits == [h.chunk_id for h in hybrid.search(cleaned, top_k=3)]
    assert bool(hits) == is_searchable(cleaned)


def test_query_length_limit_is_one_message(hybrid: HybridIndex) -> None:
    limit = hybrid.settings.search.max_query_chars
    messages = set()
    for check in (
        lambda q: normalize_query(q, max_chars=limit),
        lambda q: validate_query(q, max_chars=limit),
        hybrid.search,
    ):
        with pytest.raises(InputError) as e:
            check("x" * (limit + 1))
        messages.add(str(e.value))
    assert messages == {f"query too long: {limit + 1} characters (limit {limit})"}
    assert normalize_query("x" * limit, max_chars=limit) == "x" * limit


def test_tokenizer_variants_build() -> None:
    chunks, cards = corpus()
    for name in ("standard", "part_aware_no_ngrams"):
        idx = HybridIndex.build(chunks, cards, tokenizer=name, dense=False)
        assert idx.search("FA-128 ESR", top_k=1, mode="bm25")[0].doc_id == "dfa"
        assert idx.search("FA-128 ESR", top_k=1)[0].dense_rank is None


def test_blocks_of_one_page_ranked_together_are_one_hit(hybrid: HybridIndex) -> None:
    """A query naming a part matches its features text and its table on page 1: merged without a
    score condition they come back as one hit, the table a companion of the text or the reverse;
    the next hit is then another page. With one chunk a hit they are two hits. By default only a
    chunk scoring within `hit_companion_score` of the hit joins it."""
    q = "7M-26.000MAAJ-T load capacitance"
    chunks = SearchOptions(units=False)  # companions, not the page units of the unit choice
    for h in hybrid.search(q, top_k=15, options=chunks):  # the default: scores the ranking cannot tell apart
        assert all(c.score >= hybrid.settings.hits.companion_score * h.score for c in h.companions)
    merging = copy.copy(hybrid)
    merging.settings = hybrid.settings.updated(hit_companion_score=0.0)
    hits = merging.search(q, top_k=3, options=chunks)
    top = hits[0]
    assert {top.chunk_id, *(c.chunk_id for c in top.companions)} == {"d7m_p1_b00", "d7m_p1_b01"}
    assert all(c.page == top.page and c.doc_id == top.doc_id for c in top.companions)
    assert all(c.score <= top.score for c in top.companions)
    pages = [(h.doc_id, h.page) for h in hits]
    assert len(set(pages)) == len(pages)  # no page twice among the hits
    shown = len(top.all_regions()) + sum(len(c.all_regions()) for c in top.companions)
    assert len(top.hit_regions()) == shown
    single = copy.copy(hybrid)
    single.settings = merging.settings.updated(hit_page_members=1)
    flat = [h.chunk_id for h in single.search(q, top_k=15, options=chunks)]
    assert all(not h.companions for h in single.search(q, top_k=15, options=chunks))
    lead, comp = flat.index(top.chunk_id), flat.index(top.companions[0].chunk_id)
    assert lead == 0 and comp < hybrid.settings.hits.merge_depth
    # what the companion displaced: the hit after it in the flat list moves up one place
    assert hits[1].chunk_id == next(c for c in flat[1:] if c != top.companions[0].chunk_id)


def test_the_embedder_reads_a_table_as_its_row_names_without_letterless_tokens() -> None:
    """`candidates.embed_text`: card line first, a table as its rows' first cells (not the grid),
    and no token without a letter anywhere ("12", "±3"; "°C" and "CL" stay)."""
    from layoutrag.index.candidates import embed_text

    chunks, cards = corpus()
    table = next(c for c in chunks if c.rows)
    text = embed_text(table, 1500, cards[table.doc_id])
    lines = text.split("\n")
    card = cards[table.doc_id]
    assert lines[0].startswith(card.title)
    assert "Load capacitance CL" in lines and "Equivalent series resistance ESR" in lines
    assert "Drive level" in lines
    assert "pF" not in text  # the value cells are not read, only each row's name
    tokens = text.split()
    assert tokens and all(any(ch.isalpha() for ch in t) for t in tokens)
    prose = next(c for c in chunks if not c.rows and "°C" in c.native_text)
    ptext = embed_text(prose, 1500, cards[prose.doc_id])
    assert "°C." in ptext.split() and "-40" not in ptext.split() and "+85" not in ptext.split()
    assert "operating temperature" in ptext
    assert len(embed_text(prose, 20, cards[prose.doc_id])) == 20

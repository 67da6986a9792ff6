"""Scenario questions (issue #12, TKD): a long question of several clauses that names no part.

- `is_scenario_question`: the bar is long enough that no region query (a part and a parameter)
  reaches it;
- such a question's BM25 uses `index.bm25_b_long` (chunk, page and document runs): the chunk that
  meets more of its terms is the longer one, and full length normalization would hand the lead to
  a short chunk holding one of them; every other query keeps `bm25_b`;
- `focus_terms`: a scenario question's CJK text reaches BM25 as the glossary terms it holds.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from layoutrag.config import FusionSettings, FusionStrategy, load_settings
from layoutrag.index.base import LexicalQuery, is_scenario_question, ranker_b_long
from layoutrag.index.glossary import Glossary, load_glossary
from layoutrag.index.hybrid import HybridIndex
from layoutrag.index.options import SearchOptions
from layoutrag.index.ranker import default_ranker
from layoutrag.records import Chunk, DocumentCard

LONG_EN = (
    "We build base station equipment for a telecom operator and our team is not made of clock "
    "experts, so we need an oscillator with low phase noise and high frequency stability over the "
    "operating temperature range: which one would you recommend?"
)
LONG_ZH = "我们是一家做小型基站的初创公司，团队里没有晶振方面的专家。能不能帮我们推荐一款稳定度高、相位噪声低的晶振？"


@pytest.mark.parametrize(
    "query",
    [
        "7M-26.000MAAJ-T ESR",
        "What is the drive level of the FA-128 series?",
        "负载电容是多少",
        "SG-8018 的频率稳定度是多少",
        "recommended land pattern SG-8018 solder pads",
    ],
)
def test_region_style_queries_are_not_scenario_questions(query: str) -> None:
    assert not is_scenario_question(query)


def test_long_questions_are_scenario_questions() -> None:
    assert is_scenario_question(LONG_EN)
    assert is_scenario_question(LONG_ZH)


def _chunk(cid: str, doc: str, text: str, block_type: str = "text") -> Chunk:
    return Chunk(chunk_id=cid, doc_id=doc, page=1, block_type=block_type, description=text)


def corpus() -> tuple[list[Chunk], list[DocumentCard]]:
    spec = (
        "Electrical specifications of the oscillator: supply voltage 3.3 V, supply current 5 mA, "
        "output level HCMOS, rise and fall time 5 ns, phase noise -150 dBc/Hz at 10 kHz offset, "
        "frequency stability 10 ppb over the operating temperature range -40 to +85 C, aging 0.5 ppm "
        "per year, start-up time 10 ms, storage temperature -55 to +125 C, load 15 pF."
    )
    chunks = [
        _chunk("a_p1_b00", "a", "Base station", "application"),
        _chunk("a_p1_b01", "a", spec, "electrical_specifications_table"),
        _chunk("b_p1_b00", "b", "Package outline dimensions 5.0 x 3.2 mm, ceramic", "figure"),
        _chunk("b_p1_b01", "b", "Tape and reel packing, 1000 pieces per reel", "text"),
        _chunk("c_p1_b00", "c", "Crystal unit, load capacitance 12 pF, ESR 40 ohm max", "table"),
        _chunk("c_p1_b01", "c", "Recommended land pattern and soldering profile", "figure"),
        # the spec table's words are common in a datasheet corpus; "base station" is not
        _chunk("d_p1_b00", "d", "Oscillator phase noise curve at 10 MHz", "figure"),
        _chunk("d_p1_b01", "d", "Frequency stability over the operating temperature range", "table"),
        _chunk("e_p1_b00", "e", "Low phase noise oscillator, high frequency stability", "text"),
        _chunk("e_p1_b01", "e", "Operating temperature range and storage temperature", "table"),
    ]
    cards = [DocumentCard(doc_id=d, title=f"Datasheet {d.upper()}") for d in "abcde"]
    return chunks, cards


def _lead(ix: HybridIndex, query: str) -> str:
    return ix.search(query, top_k=3, mode="bm25")[0].chunk_id


def test_scenario_question_bm25_uses_b_long() -> None:
    chunks, cards = corpus()
    s = load_settings()
    assert s.index.bm25_b_long == 0.0 and s.index.bm25_b == 0.75
    shipped = HybridIndex.build(chunks, cards, dense=False, settings=s)
    off = HybridIndex.build(chunks, cards, dense=False, settings=s.updated(bm25_b_long=s.index.bm25_b))
    lex = shipped.lexical_query(LONG_EN)
    assert isinstance(lex, LexicalQuery) and lex.scenario
    # length-normalized, a one-line summary leads; without, the table that meets more of the terms
    assert _lead(off, LONG_EN) == "e_p1_b00"
    assert _lead(shipped, LONG_EN) == "a_p1_b01"
    # the document and page runs follow the same weights (the ranker's features read them)
    assert shipped._lexical("doc", lex) is not shipped.doc_bm25
    assert off._lexical("doc", off.lexical_query(LONG_EN)) is off.doc_bm25


def test_short_queries_keep_bm25_b() -> None:
    chunks, cards = corpus()
    s = load_settings()
    shipped = HybridIndex.build(chunks, cards, dense=False, settings=s)
    off = HybridIndex.build(chunks, cards, dense=False, settings=s.updated(bm25_b_long=s.index.bm25_b))
    for q in ("base station phase noise", "oscillator frequency stability", "ESR load capacitance"):
        lex = shipped.lexical_query(q)
        assert not lex.scenario and shipped._lexical("chunk", lex) is shipped.bm25
        a = [(h.chunk_id, h.score) for h in shipped.search(q, top_k=6, mode="bm25")]
        b = [(h.chunk_id, h.score) for h in off.search(q, top_k=6, mode="bm25")]
        assert a == b


def test_glossary_terms_in_text_longest_first_without_overlap() -> None:
    g = Glossary([("相位噪声", "phase noise"), ("噪声", "noise"), ("晶振", "crystal"), ("GPS", "TCXO")])
    assert g.zh_terms_in("推荐一款相位噪声低的晶振") == ["相位噪声", "晶振"]
    assert g.zh_terms_in("噪声和相位噪声") == ["相位噪声", "噪声"]
    assert g.zh_terms_in("GPS 模块") == []  # a one-way hint has no Chinese: not a term of the text


def test_focus_keeps_glossary_terms_of_a_scenario_question_only() -> None:
    chunks, cards = corpus()
    ix = HybridIndex.build(chunks, cards, dense=False)
    plain = ix.lexical_query(LONG_ZH, expand=False)
    focused = ix.lexical_query(LONG_ZH, expand=False, focus=True)
    terms = load_glossary().zh_terms_in(LONG_ZH)
    assert "相位噪声" in terms and "晶振" in terms
    kept = {t for term in terms for t in ix.tokenizer.tokenize(term)}
    assert set(focused) == kept  # the question has no Latin word: only its glossary terms are left
    assert "我们" in plain and "我们" not in focused  # filler bigrams are gone
    short = "SG-8018 的频率稳定度是多少"
    assert ix.lexical_query(short, focus=True) == ix.lexical_query(short)
    # the switch reaches the search: same chunks either way here, different lexical evidence
    a = ix.search(LONG_ZH, top_k=3, options=SearchOptions(mode="bm25", focus_terms=True))
    assert all(h.bm25_rank is not None for h in a)


def test_learned_search_makes_features_as_its_ranker_was_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The learned ranker's features of a scenario question use the b its weights file records
    (`bm25_b_long` in meta); weights fit before it (no such key) keep `bm25_b` for every query, so
    the shipped ranker sees the features it was fit on until it is refit."""
    chunks, cards = corpus()
    ix = HybridIndex.build(chunks, cards, dense=False)
    seen: list[float | None] = []
    orig = HybridIndex._lexical

    def spy(self: HybridIndex, level: str, lex: dict[str, float]):  # noqa: ANN202 - BM25Index
        seen.append(getattr(lex, "b", None))
        return orig(self, level, lex)

    monkeypatch.setattr(HybridIndex, "_lexical", spy)
    shipped = default_ranker()
    old = replace(shipped, meta=tuple(kv for kv in shipped.meta if kv[0] != "bm25_b_long"))
    new = replace(shipped, meta=(*old.meta, ("bm25_b_long", "0.0")))
    assert ranker_b_long(old) is None and ranker_b_long(new) == 0.0
    learned = FusionSettings(strategy=FusionStrategy.learned)
    for ranker, want in ((old, None), (new, 0.0)):
        seen.clear()
        ix.search(LONG_EN, top_k=3, options=SearchOptions(fusion=learned, ranker=ranker))
        assert seen and set(seen) == {want}
    seen.clear()
    ix.search("oscillator phase noise", top_k=3, options=SearchOptions(fusion=learned, ranker=new))
    assert seen and set(seen) == {None}  # not a scenario question
    seen.clear()
    ix.search(LONG_EN, top_k=3, mode="bm25")  # no ranker: the settings' bm25_b_long
    assert set(seen) == {0.0}

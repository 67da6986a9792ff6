"""The optional LLM regroup/describe pass, against a local server speaking the OpenAI protocol."""

from __future__ import annotations

import json
import re

from chunk_factory import build_pdf, element_ids, table_caption_footnote_page
from layoutrag.chunking.enrich import parse_groups
from layoutrag.chunking.pipeline import chunk_and_save, load_doc_chunks
from layoutrag.config import Settings
from layoutrag.storage import DataDir
from llm_stub import OpenAIStub

S = Settings()


def _setup(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [table_caption_footnote_page()])
    data = DataDir(tmp_path / "data")
    data.doc_dir(doc.doc_id).mkdir(parents=True)
    return doc, data


def test_llm_regroups_by_indices_and_guards_hold(tmp_path, monkeypatch):
    doc, data = _setup(tmp_path)
    # content elements the model sees, in reading order: 0 heading, 1 text, 2 caption, 3 table,
    # 4 footnote, 5 text (header/footer bands are not sent)
    answer = {
        "groups": [
            {"elements": [0, 1, 5], "description": "Intro and storage notes"},  # 5 is far away
            {"elements": [2, 3, 99], "description": "Electrical characteristics: 26 MHz, 12 pF"},
            {"elements": [3], "description": "duplicate claim"},  # the table again
        ]
    }
    with OpenAIStub(chat=lambda messages: "Here you go:\n" + json.dumps(answer)) as stub:
        monkeypatch.setenv("LAYOUTRAG_LLM_BASE_URL", stub.base_url)
        monkeypatch.setenv("LAYOUTRAG_LLM_MODEL", "stub-model")
        chunk_and_save(doc, data, S)
        prompt = stub.requests[0][1]["messages"][1]["content"]
    dc = load_doc_chunks(data, doc.doc_id)
    groups = sorted(c.element_ids for c in dc.chunks)
    assert groups == sorted(
        [
            element_ids(doc, 1, 0),  # header band, kept from the rules
            element_ids(doc, 1, 1, 2),  # the model's first group, cut by the gap guard ...
            element_ids(doc, 1, 6),  # ... into two
            element_ids(doc, 1, 3, 4),  # caption + table (index 99 ignored)
            element_ids(doc, 1, 5),  # footnote left out by the model: its own chunk, counted
            element_ids(doc, 1, 7),  # footer band
        ]
    )
    assert dc.n_unassigned == 1
    table = next(c for c in dc.chunks if c.block_type == "table")
    assert table.description == "Electrical characteristics: 26 MHz, 12 pF"
    assert table.rows and table.header == ["Parameter", "Symbol", "Typ", "Unit"]  # rows survive regrouping
    assert dc.key.endswith("+llm:stub-model")
    # the model sees numbered elements with labels and text, never coordinates
    listed = [ln for ln in prompt.splitlines() if ln.startswith("[")]
    assert [re.match(r"\[(\d+)\] (\w+):", ln).groups() for ln in listed if re.match(r"\[\d+\] \w+:", ln)] == [
        ("0", "section_header"),
        ("1", "text"),
        ("2", "caption"),
        ("3", "table"),
        ("4", "footnote"),
        ("5", "text"),
    ]
    assert "156" not in prompt and "bbox" not in prompt


def test_unparseable_answer_keeps_rule_groups(tmp_path, monkeypatch):
    doc, data = _setup(tmp_path)
    with OpenAIStub(chat=lambda messages: "I cannot help with that.") as stub:
        monkeypatch.setenv("LAYOUTRAG_LLM_BASE_URL", stub.base_url)
        chunk_and_save(doc, data, S)
    dc = load_doc_chunks(data, doc.doc_id)
    assert [c.element_ids for c in dc.chunks][2] == element_ids(doc, 1, 3, 4, 5)
    assert dc.n_unassigned == 0


def test_unreachable_endpoint_never_breaks_chunking(tmp_path, monkeypatch):
    doc, data = _setup(tmp_path)
    monkeypatch.setenv("LAYOUTRAG_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    assert chunk_and_save(doc, data, S) == 5


def test_parse_groups_accepts_indices_only():
    assert parse_groups('{"groups": [{"elements": [0, 2, true, "1", 7]}]}', 3) == [([0, 2], "")]
    assert parse_groups("no json", 3) is None
    assert parse_groups('{"groups": "x"}', 3) is None

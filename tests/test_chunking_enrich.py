"""The optional LLM regroup/describe pass, against a local server speaking the OpenAI protocol."""

from __future__ import annotations

import json
import re

from PIL import Image

from chunk_factory import PAGE_H, PAGE_W, build_pdf, element_ids, table_caption_footnote_page
from layoutrag.chunking.enrich import numbered_page_image, page_image, parse_groups
from layoutrag.chunking.pipeline import chunk_and_save, load_doc_chunks
from layoutrag.config import Settings
from layoutrag.storage import DataDir
from llm_stub import OpenAIStub, message_text

S = Settings()
IMG_SIZE = (round(PAGE_W * 1024 / PAGE_H), 1024)  # the page at the default long side


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
    with OpenAIStub(
        chat=lambda messages: "Here you go:\n" + json.dumps(answer), image_long_side=1024
    ) as stub:
        monkeypatch.setenv("LAYOUTRAG_LLM_BASE_URL", stub.base_url)
        monkeypatch.setenv("LAYOUTRAG_LLM_MODEL", "stub-model")
        chunk_and_save(doc, data, Settings())
        prompt = message_text(stub.requests[0][1]["messages"][1])
    # the page went along as one well-formed PNG part (checked and decoded by the stub) ...
    assert not stub.rejected and len(stub.requests) == 1
    assert [(im.request, im.format, im.size) for im in stub.images] == [(0, "PNG", IMG_SIZE)]
    parts = stub.requests[0][1]["messages"][1]["content"]
    assert [p["type"] for p in parts] == ["text", "image_url"]
    # ... with the element numbers drawn on it: a red tag at each content element's top-left corner
    img = stub.images[0].image.convert("RGB")
    k = IMG_SIZE[1] / PAGE_H
    page = doc.pages[0]
    content = [
        e
        for e in sorted(page.elements, key=lambda e: e.order)
        if e.label not in ("page_header", "page_footer")
    ]
    for e in content:
        x, y = int(e.bbox_pdf[0] * k) + 1, int(e.bbox_pdf[1] * k) + 1
        assert _is_red(img.getpixel((x, y))), e.label
    header = next(e for e in page.elements if e.label == "page_header")  # bands are not numbered
    assert not _is_red(img.getpixel((int(header.bbox_pdf[0] * k) + 1, int(header.bbox_pdf[1] * k) + 1)))
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
    assert dc.key.endswith("+llm:stub-model:vision")  # model and image mode are part of the key
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


def _is_red(px: tuple[int, int, int]) -> bool:
    r, g, b = px[:3]
    return r > 150 and g < 80 and b < 80


def _answer(messages):
    return json.dumps({"groups": [{"elements": [2, 3, 4], "description": "Table 2 with caption and note"}]})


def test_text_only_setting_sends_no_image(tmp_path, monkeypatch):
    doc, data = _setup(tmp_path)
    with OpenAIStub(chat=_answer) as stub:
        monkeypatch.setenv("LAYOUTRAG_LLM_BASE_URL", stub.base_url)
        chunk_and_save(doc, data, Settings().updated(llm_vision=False))
    assert stub.images == [] and isinstance(stub.requests[0][1]["messages"][1]["content"], str)
    table = next(c for c in load_doc_chunks(data, doc.doc_id).chunks if c.block_type == "table")
    assert table.element_ids == element_ids(doc, 1, 3, 4, 5)
    assert table.description == "Table 2 with caption and note"


def test_text_only_model_refusing_the_image_gets_the_text_prompt(tmp_path, monkeypatch):
    doc, data = _setup(tmp_path)
    with OpenAIStub(chat=_answer, vision=False) as stub:
        monkeypatch.setenv("LAYOUTRAG_LLM_BASE_URL", stub.base_url)
        chunk_and_save(doc, data, Settings())
    assert stub.rejected == ["this model does not accept images"]
    assert isinstance(stub.requests[1][1]["messages"][1]["content"], str)  # the retry, text only
    dc = load_doc_chunks(data, doc.doc_id)
    table = next(c for c in dc.chunks if c.block_type == "table")
    assert table.element_ids == element_ids(doc, 1, 3, 4, 5)
    assert table.description == "Table 2 with caption and note"
    # the guards: elements 1, 2, 6 the model left out are each their own chunk, none lost or doubled
    ids = [i for c in dc.chunks for i in c.element_ids]
    assert sorted(ids) == sorted(e.element_id for e in doc.pages[0].elements) and len(ids) == len(set(ids))
    assert dc.n_unassigned == 3


def test_stub_rejects_malformed_image_parts():
    import httpx

    good = numbered_page_image(Image.new("RGB", (50, 100), "white"), _page(), [])
    with OpenAIStub(image_long_side=100) as stub:
        for url, ok in [
            ("data:image/png;base64,iVBORw0KGgo=", False),  # truncated PNG
            ("data:image/jpeg;base64," + _b64(good, "PNG"), False),  # declared JPEG, is PNG
            ("http://example.com/x.png", False),  # not a data URL
            ("data:image/png;base64," + _b64(good.resize((40, 80)), "PNG"), False),  # wrong size
            ("data:image/jpeg;base64," + _b64(good, "JPEG"), True),
        ]:
            msg = {
                "role": "user",
                "content": [{"type": "text", "text": "x"}, {"type": "image_url", "image_url": {"url": url}}],
            }
            r = httpx.post(stub.base_url + "/chat/completions", json={"messages": [msg]})
            assert (r.status_code == 200) is ok, url[:40]
    assert [(i.format, i.size) for i in stub.images] == [("JPEG", (50, 100))]
    assert len(stub.rejected) == 4


def _b64(img, fmt):
    import base64
    import io

    buf = io.BytesIO()
    img.save(buf, format=fmt)
    return base64.b64encode(buf.getvalue()).decode()


def _page():
    from layoutrag.records import Page

    return Page(page=1, width_pt=50, height_pt=100)


def test_page_image_prefers_the_data_dir_page_cache(tmp_path):
    doc, data = _setup(tmp_path)
    page = doc.pages[0]
    rendered = page_image(doc, page, 512)  # from the source PDF: white paper
    assert rendered is not None and rendered.size == (round(PAGE_W * 512 / PAGE_H), 512)
    assert rendered.getpixel((2, 2)) == (255, 255, 255)
    cache = data.page_png(doc.doc_id, 1, 200)  # what evidence images are cut from
    cache.parent.mkdir(parents=True)
    Image.new("RGB", (round(PAGE_W * 200 / 72), round(PAGE_H * 200 / 72)), (0, 0, 255)).save(cache)
    cached = page_image(doc, page, 512, data=data, dpi=200)
    assert cached is not None and cached.size == rendered.size and cached.getpixel((2, 2)) == (0, 0, 255)
    gone = doc.model_copy(update={"source_pdf": str(tmp_path / "missing.pdf")})
    assert page_image(gone, page, 512) is None  # no source: the text-only prompt


def test_unparseable_answer_keeps_rule_groups(tmp_path, monkeypatch):
    doc, data = _setup(tmp_path)
    with OpenAIStub(chat=lambda messages: "I cannot help with that.") as stub:
        monkeypatch.setenv("LAYOUTRAG_LLM_BASE_URL", stub.base_url)
        chunk_and_save(doc, data, Settings())
    dc = load_doc_chunks(data, doc.doc_id)
    assert [c.element_ids for c in dc.chunks][2] == element_ids(doc, 1, 3, 4, 5)
    assert dc.n_unassigned == 0


def test_unreachable_endpoint_never_breaks_chunking(tmp_path, monkeypatch):
    doc, data = _setup(tmp_path)
    monkeypatch.setenv("LAYOUTRAG_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    assert chunk_and_save(doc, data, Settings()) == 5


def test_parse_groups_accepts_indices_only():
    assert parse_groups('{"groups": [{"elements": [0, 2, true, "1", 7]}]}', 3) == [([0, 2], "")]
    assert parse_groups("no json", 3) is None
    assert parse_groups('{"groups": "x"}', 3) is None

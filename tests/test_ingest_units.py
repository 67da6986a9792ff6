"""Unit tests of the ingest stages: de-dup rules, label mapping, coordinates, reading order, YOLO math."""

from __future__ import annotations

import os

import numpy as np
import pymupdf
import pytest

from layoutrag.errors import InputError
from layoutrag.geometry import pt_to_px, px_to_pt
from layoutrag.ingest.dedup import area_dedup, confidence_dedup, dedup
from layoutrag.ingest.labels import map_label
from layoutrag.ingest.layout import (
    Detection,
    _drawing_clusters,
    _page_layout,
    get_detector,
    letterbox,
    nms,
    snap_pictures_to_drawings,
    snap_tables_to_rulings,
)
from layoutrag.ingest.reading_order import element_id, order_elements, xy_cut
from layoutrag.ingest.text import assign_text, group_lines, words_text
from layoutrag.pdf import (
    extract_words,
    glyph_number_lines,
    glyph_number_reader,
    render_page_rgb,
    standard_glyph_reader,
    symbol_reader,
    to_displayed,
)
from layoutrag.records import LABELS, Word
from pdf_factory import (
    add_offset_mediabox_page,
    add_rotated_page,
    add_table_page,
    add_two_column_page,
    symbol_codes_pdf,
)


def det(label: str, conf: float, box: tuple[float, float, float, float]) -> Detection:
    return Detection(label, label, conf, box)


# --------------------------------------------------------------------------- de-dup
def test_area_dedup_keeps_complete_box_with_lower_confidence() -> None:
    complete = det("table", 0.37, (50, 100, 550, 400))
    truncated = det("table", 0.73, (50, 100, 550, 300))  # the top two thirds, scored higher
    kept = area_dedup([truncated, complete])
    assert kept == [complete]
    # the ablation keeps the truncated box: exactly the failure area de-dup exists to avoid
    assert confidence_dedup([truncated, complete]) == [truncated]


def test_dedup_rules() -> None:
    picture = det("picture", 0.9, (100, 100, 300, 300))
    caption_inside = det("caption", 0.8, (110, 280, 290, 298))  # cross-class nesting is kept
    near_copy_other_class = det("text", 0.95, (101, 101, 299, 299))  # IoU > 0.85, any class → drop
    same_class_overlap = det("picture", 0.99, (100, 160, 300, 330))  # same class, IoU ≈ 0.6 → drop
    same_class_inside = det("picture", 0.99, (120, 120, 290, 290))  # ≥ 85 % inside same class → drop
    other = det("text", 0.5, (400, 100, 500, 200))
    kept = area_dedup(
        [caption_inside, near_copy_other_class, same_class_overlap, same_class_inside, other, picture]
    )
    assert picture in kept and caption_inside in kept and other in kept
    assert (
        same_class_overlap not in kept and same_class_inside not in kept and near_copy_other_class not in kept
    )
    # same class but only 50 % inside and IoU < 0.55: both stay
    half = det("picture", 0.9, (250, 100, 350, 200))
    assert len(area_dedup([picture, half])) == 2


def test_dedup_strategy_names() -> None:
    a = det("text", 0.2, (0, 0, 100, 100))
    b = det("text", 0.9, (0, 0, 100, 60))
    assert dedup([a, b], "area") == [a]
    assert dedup([a, b], "confidence") == [b]
    with pytest.raises(InputError, match="area, confidence"):
        dedup([a], "biggest")


# --------------------------------------------------------------------------- labels / registry
def test_label_mapping_covers_both_backends() -> None:
    pymupdf_classes = [
        "text",
        "title",
        "picture",
        "table",
        "list-item",
        "page-header",
        "page-footer",
        "section-header",
        "footnote",
        "caption",
        "formula",
    ]
    yolo_classes = [
        "Caption",
        "Footnote",
        "Formula",
        "List-item",
        "Page-footer",
        "Page-header",
        "Picture",
        "Section-header",
        "Table",
        "Text",
        "Title",
    ]
    assert {map_label(c) for c in pymupdf_classes} == set(LABELS)
    assert {map_label(c) for c in yolo_classes} == set(LABELS)
    assert map_label("Section-header") == "section_header"
    assert map_label("something-new") == "text"


def test_layout_without_table_grid_gives_the_same_boxes() -> None:
    """The PyMuPDF detector leaves out pymupdf-layout's table-grid step (rows and columns for its
    Markdown): the boxes are those of a plain ``page.get_layout()``, tables included, and the
    model keeps its table-grid extractor for anyone else in the process."""
    detector = get_detector("pymupdf")
    model = detector._model
    assert model is not None and model.table_grid_extractor is not None
    grid = model.table_grid_extractor
    doc = pymupdf.open()
    add_table_page(doc)
    add_two_column_page(doc)
    labels = set()
    for page in doc:
        page.get_layout()
        full = page.layout_information
        assert full and _page_layout(model, page) == full
        assert model.table_grid_extractor is grid
        labels |= {box[4] for box in full}
    assert "table" in labels  # the step was there to skip


def test_image_feature_session_reuses_its_memory_with_the_same_outputs() -> None:
    """The layout model's image-feature session (fixed 300x300 input) runs with onnxruntime's
    memory arena, the graph model (one node per text line) without, as pymupdf-layout opens it;
    the arena session's outputs are those of the session pymupdf-layout opens (no arena)."""
    import onnxruntime as ort

    model = get_detector("pymupdf")._model
    imf = model.feature_extractor._session
    assert imf.get_session_options().enable_cpu_mem_arena
    assert not model.session.get_session_options().enable_cpu_mem_arena
    opts = ort.SessionOptions()
    opts.enable_cpu_mem_arena = False
    opts.intra_op_num_threads = imf.get_session_options().intra_op_num_threads
    plain = ort.InferenceSession(imf._model_path, sess_options=opts, providers=imf.get_providers())
    doc = pymupdf.open()
    add_table_page(doc)
    gray = render_page_rgb(doc[0], 72).mean(axis=2)
    image = np.resize(gray / 255.0, (1, 1, 300, 300)).astype(np.float32)
    name = imf.get_inputs()[0].name
    for _ in range(2):  # the second call runs on reused buffers
        for a, b in zip(imf.run(None, {name: image}), plain.run(None, {name: image}), strict=True):
            assert np.array_equal(a, b)


def test_get_detector_rejects_unknown_name() -> None:
    with pytest.raises(ValueError, match="pymupdf, yolo"):
        get_detector("detectron")


# --------------------------------------------------------------------------- coordinates
@pytest.mark.parametrize("dpi", [72, 96, 150, 200, 300])
def test_pt_px_round_trip(dpi: int) -> None:
    box = (12.5, 40.25, 300.0, 791.9)
    back = px_to_pt(pt_to_px(box, dpi), dpi)
    assert np.allclose(back, box)
    assert pt_to_px(box, dpi)[2] == pytest.approx(300.0 * dpi / 72)


@pytest.mark.parametrize("builder", [add_rotated_page, add_offset_mediabox_page])
@pytest.mark.parametrize("dpi", [72, 150])
def test_displayed_box_lands_on_rendered_ink(builder, dpi: int) -> None:  # noqa: ANN001
    """A box stored in displayed points, scaled to pixels, must hit the ink of the rendered page."""
    doc = pymupdf.open()
    truth = builder(doc)
    doc = pymupdf.open("pdf", doc.tobytes())  # re-open: the saved file is what the pipeline sees
    page = doc[0]
    img = render_page_rgb(page, dpi)
    assert img.shape[1] == pytest.approx(page.rect.width * dpi / 72, abs=1)
    x0, y0, x1, y1 = (int(round(v)) for v in pt_to_px(truth.boxes["marker"], dpi))
    inside = img[y0 + 3 : y1 - 3, x0 + 3 : x1 - 3]
    assert inside.mean() < 10  # the black marker
    assert img[max(0, y0 - 12) : y0 - 4, x0:x1].mean() > 200 or img[y1 + 4 : y1 + 12, x0:x1].mean() > 200
    # the words of the text layer are in the same displayed space: inside the page
    words = extract_words(page)
    assert words
    for w in words:
        assert 0 <= w.bbox_pdf[0] < w.bbox_pdf[2] <= page.rect.width + 0.01
        assert 0 <= w.bbox_pdf[1] < w.bbox_pdf[3] <= page.rect.height + 0.01


def test_to_displayed_rotates_unrotated_boxes() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=600)
    page.set_rotation(90)
    # unrotated (x, y) → displayed (600 - y, x) for /Rotate 90
    assert to_displayed(page, (10, 20, 30, 50)) == pytest.approx((550, 10, 580, 30))


# --------------------------------------------------------------------------- text
def test_words_in_reading_order_and_orphans_kept() -> None:
    words = [
        Word(text="world", bbox_pdf=(60, 10, 90, 20), block=0),
        Word(text="hello", bbox_pdf=(10, 11, 50, 20), block=0),
        Word(text="second", bbox_pdf=(10, 30, 60, 40), block=0),
        Word(text="orphan", bbox_pdf=(300, 300, 340, 310), block=1),
    ]
    elements = assign_text([det("text", 0.9, (0, 0, 100, 50))], words, [], page=1, text_source="pdf_layer")
    assert elements[0].text == "hello world\nsecond"
    orphan = [e for e in elements if e.source_label == "orphan_text"]
    assert len(orphan) == 1 and orphan[0].text == "orphan" and orphan[0].label == "text"
    assert orphan[0].bbox_pdf == (300, 300, 340, 310)


def test_group_lines_separates_lines() -> None:
    ws = [
        Word(text=t, bbox_pdf=(x, y, x + 20, y + 8)) for t, x, y in [("b", 40, 0), ("a", 0, 1), ("c", 0, 20)]
    ]
    assert [[w.text for w in line] for line in group_lines(ws)] == [["a", "b"], ["c"]]


def test_vertical_text_on_rotated_page_reads_in_order() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=600)
    page.insert_text((50, 100), "alpha beta gamma", fontsize=12)
    page.insert_text((50, 120), "delta epsilon", fontsize=12)
    page.set_rotation(90)
    assert words_text(extract_words(page), rotation=90) == "alpha beta gamma\ndelta epsilon"


def test_symbol_font_codes_are_read_as_the_characters_drawn() -> None:
    """A Symbol font whose PDF gives codes: "80 mA" drawn as 80 µA, "4 MW" as 4 MΩ, "qJA" as θJA.
    The words keep their boxes and count; Helvetica's own letters are left alone."""
    runs = [("H", b"Standby 80 "), ("S", b"m"), ("H", b"A max, 4 M"), ("S", b"W"), ("H", b" "), ("S", b"q"), ("H", b"JA")]
    page = pymupdf.open("pdf", symbol_codes_pdf(runs))[0]
    given = page.get_text("words", sort=False)
    assert " ".join(w[4] for w in given) == "Standby 80 mA max, 4 MW qJA"  # what the text layer says
    words = extract_words(page)
    assert " ".join(w.text for w in words) == "Standby 80 µA max, 4 MΩ θJA"
    assert [w.bbox_pdf for w in words] == [to_displayed(page, w[:4]) for w in given]


def test_symbol_reader_by_what_the_font_gives() -> None:
    # U+F000 + code (a TrueType symbol cmap): read by the code, a code read as a space is dropped later
    read = symbol_reader({"\uf0b0", "\uf057", "\uf06d", "\uf020"})
    assert [read(c) for c in "\uf0b0\uf057\uf06d\uf020"] == ["°", "Ω", "µ", " "]
    # letters are codes: the other characters too, through the one encoding holding them all
    mac = symbol_reader({"m", "±", "∞", "¥"})  # ∞ is not in WinAnsi: MacRoman 0xB0 is the degree sign
    assert [mac(c) for c in "m±∞¥"] == ["µ", "±", "°", "×"]
    win = symbol_reader({"W", "´", "æ"})  # WinAnsi 0xB4, 0xE6: times, left parenthesis upper hook
    assert [win(c) for c in "W´æ"] == ["Ω", "×", "⎛"]
    # a Greek character means the font maps its codes: only its letters are codes
    mixed = symbol_reader({"m", "Ω", "µ", "°"})
    assert [mixed(c) for c in "mΩµ°"] == ["µ", "Ω", "µ", "°"]
    # characters of a font that gives what it draws stay; digits and ASCII signs always do
    plain = symbol_reader({"±", "°", "5", "("})
    assert [plain(c) for c in "±°5("] == ["±", "°", "5", "("]


def test_glyph_numbers_of_a_symbolmt_subset() -> None:
    """Glyph n of SymbolMT draws code n + 0x1D up to "~", then from 0xA1 on: "1 PF" is 1 µF,
    "1.2 k:" 1.2 kΩ, "-40qC" -40 °C, "PV/—Hz" µV/√Hz, "'VOUT" ΔVOUT."""
    assert "".join(glyph_number_reader(c) for c in "P:q—'\x0b\x0c") == "µΩ°√Δ()"
    assert glyph_number_reader("€") == "↵"  # WinAnsi 0x80: glyph 128, code 0xBF
    assert glyph_number_reader("\x01") == "\x01"  # glyphs 0-2 are no character: left as given
    assert glyph_number_reader("Ω") == "Ω"  # not a WinAnsi character: left as given


def _glyph_number_page() -> pymupdf.Page:
    """A page set in a TrueType font of the standard glyph order (Bitstream Vera, shipped with
    reportlab) whose /ToUnicode is removed - so the text layer gives glyph numbers, as the real PDFs
    with such fonts do - beside lines in Helvetica, and a word of that font set apart ("Reset", no
    space in it: read because the next span of its font on its line is read so)."""
    reportlab = pytest.importorskip("reportlab")
    font = os.path.join(os.path.dirname(reportlab.__file__), "fonts", "Vera.ttf")
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_font(fontname="vera", fontfile=font)
    page.insert_text((72, 72), "Operating temperature -25 °C to +85 °C, ±5 ppm", fontname="vera", fontsize=10)
    page.insert_text((72, 100), "ALERT", fontname="helv", fontsize=10)
    page.insert_text((110, 100), "Reset", fontname="vera", fontsize=10)
    page.insert_text((110 + pymupdf.Font(fontfile=font).text_length("Reset", 10) + 4, 100), "Bit 1", fontname="vera", fontsize=10)
    page.insert_text((72, 130), "Supply voltage 3.3 V", fontname="helv", fontsize=10)
    xref = next(f[0] for f in page.get_fonts(full=True) if f[4] == "vera")
    doc.xref_set_key(xref, "ToUnicode", "null")
    return pymupdf.open("pdf", doc.tobytes())[0]


def test_words_of_a_font_giving_glyph_numbers_are_read_through_the_standard_order() -> None:
    page = _glyph_number_page()
    assert "\x10\x15\x18" in page.get_text()  # the text layer gives glyph numbers ("-25")
    words = extract_words(page)
    assert [w.text for w in words] == [
        *"Operating temperature -25 °C to +85 °C, ±5 ppm".split(),
        *"ALERT Reset Bit 1".split(),
        *"Supply voltage 3.3 V".split(),
    ]
    # each word's box is its characters': "-25" starts after "temperature" and ends before "°C"
    by_text = {w.text: w.bbox_pdf for w in words}
    assert by_text["temperature"].x1 < by_text["-25"].x0 < by_text["-25"].x1 < by_text["°C"].x0
    assert all(abs(w.bbox_pdf.y0 - words[0].bbox_pdf.y0) < 1 for w in words[:9])


def test_standard_glyph_reader() -> None:
    """Glyph 3 is the space, 16 "-", 20 "1", 36 "A", 131 "°", 147 "±"; a plain space stays one, a
    Latin-1 character stays as given, a glyph past the 258 standard ones is dropped."""
    assert "".join(standard_glyph_reader(c) for c in "\x03\x10\x14$\x83\x93") == " -1A°±"
    assert standard_glyph_reader(" ") == " " and standard_glyph_reader("³") == "³"
    assert standard_glyph_reader("名") == "" and standard_glyph_reader("\x01") == ""


def test_a_stray_control_character_is_not_a_glyph_number_font() -> None:
    """Control characters in a span of plain text with more spaces than them (a bullet font's code,
    as a vendor's "\x07MINI-MELF Resistors") leave the span as given."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "x", fontname="helv", fontsize=10)
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref).replace(b"[<78>]TJ", b"[(\\007MINI-MELF Resistors With \\007)]TJ"))
    page = pymupdf.open("pdf", doc.tobytes())[0]
    assert page.get_text().count("\x07") == 2
    assert glyph_number_lines(page) == {}
    assert [w.text for w in extract_words(page)] == ["MINI-MELF", "Resistors", "With"]


# --------------------------------------------------------------------------- reading order
def test_xy_cut_reads_columns_before_rows() -> None:
    title = (50, 20, 550, 40)
    left = [(50, 60 + 20 * i, 280, 75 + 20 * i) for i in range(4)]
    right = [(320, 60 + 20 * i, 550, 75 + 20 * i) for i in range(4)]
    footer = (50, 700, 550, 720)
    boxes = [footer, *right, title, *left]
    order = [boxes[i] for i in xy_cut(boxes)]
    assert order == [title, *left, *right, footer]


def test_reading_order_on_generated_two_column_page() -> None:
    doc = pymupdf.open()
    truth = add_two_column_page(doc)
    page = doc[0]
    words = extract_words(page)
    dets = get_detector("pymupdf").detect(page, None, 72)
    elements = order_elements(assign_text(dets, words, [], page=1, text_source="pdf_layer"), "d0")
    texts = [e.text for e in elements]
    pos = {
        key: next(i for i, t in enumerate(texts) if key in t)
        for key in ("Features", "Low jitter", "Small 2.0", "Applications", "Wireless", "Consumer")
    }
    # the whole left column (header, items) before any of the right column
    assert pos["Features"] < pos["Low jitter"] < pos["Small 2.0"] < pos["Applications"]
    assert pos["Applications"] < pos["Wireless"] < pos["Consumer"]
    assert [e.order for e in elements] == list(range(len(elements)))
    assert elements[3].element_id == element_id("d0", 1, 3) == "d0_p1_e003"
    assert truth.page == 1


# --------------------------------------------------------------------------- YOLO math
def test_letterbox_maps_back_to_input_pixels() -> None:
    img = np.zeros((2200, 1700, 3), dtype=np.uint8)
    img[1000:1100, 400:800] = 255
    padded, scale, pad_x, pad_y = letterbox(img)
    assert padded.shape == (1024, 1024, 3)
    ys, xs = np.nonzero(padded[..., 0] == 255)
    box = (
        (xs.min() - pad_x) / scale,
        (ys.min() - pad_y) / scale,
        (xs.max() + 1 - pad_x) / scale,
        (ys.max() + 1 - pad_y) / scale,
    )
    assert np.allclose(box, (400, 1000, 800, 1100), atol=3)


def test_nms_suppresses_overlaps_keeps_best() -> None:
    boxes = np.array([[0, 0, 100, 100], [2, 2, 101, 99], [200, 200, 300, 300]], dtype=float)
    scores = np.array([0.5, 0.9, 0.4])
    assert nms(boxes, scores, 0.45) == [1, 2]


def test_graphics_recovered_without_page_frame() -> None:
    """A vector drawing becomes a picture; the page border around everything does not."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.draw_rect(pymupdf.Rect(30, 30, 582, 762), color=(0, 0, 0), width=1)  # page frame
    page.insert_text((60, 80), "Package drawing and dimensions of the device", fontsize=12)
    shape = page.new_shape()
    shape.draw_rect(pymupdf.Rect(200, 200, 400, 330))
    shape.draw_circle((300, 265), 30)
    shape.draw_line((200, 350), (400, 350))
    shape.finish(color=(0, 0, 0), width=1)
    shape.commit()
    pictures = [d for d in get_detector("pymupdf").detect(page, None, 72) if d.label == "picture"]
    drawing = (200, 200, 400, 350)
    assert any(
        d.bbox_pdf[0] <= drawing[0] + 2
        and d.bbox_pdf[2] >= drawing[2] - 2
        and d.bbox_pdf[3] >= drawing[3] - 2
        for d in pictures
    )
    assert all((d.bbox_pdf[2] - d.bbox_pdf[0]) < 400 for d in pictures)  # not the frame


def test_picture_box_grows_over_the_drawing_it_shows() -> None:
    """A chart boxed by its labels (the curve runs 29 pt past the last axis number) takes in the
    drawing cluster that lies mostly inside it; a neighbouring drawing and a table are left alone."""
    chart = Detection("picture", "picture", 1.0, (88.0, 197.0, 365.0, 352.0))
    table = Detection("table", "table", 1.0, (42.0, 400.0, 553.0, 500.0))
    curve = (112.0, 193.0, 394.0, 333.0)  # 87 % inside the chart box
    neighbour = (370.0, 200.0, 550.0, 350.0)  # beside it: not inside
    out = snap_pictures_to_drawings([chart, table], [curve, neighbour, (42.0, 400.0, 553.0, 520.0)])
    assert out[0].bbox_pdf == (88.0, 193.0, 394.0, 352.0)
    assert out[1] == table
    # a cluster inside the box that would more than grow it by 60 % is a neighbour, not the chart
    small = Detection("picture", "picture", 1.0, (100.0, 100.0, 200.0, 200.0))
    big = (120.0, 100.0, 400.0, 200.0)
    assert snap_pictures_to_drawings([small], [big])[0] == small


def test_invisible_white_fills_do_not_glue_drawings() -> None:
    """Two images laid on touching white backdrops (a real datasheet: a package drawing and the
    schematic beside it) are two figures; the backdrops draw nothing and form no cluster, while a
    visible drawing still does."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.draw_rect(pymupdf.Rect(195, 384, 567, 512), color=None, fill=(1, 1, 1))  # backdrop 1
    page.draw_rect(pymupdf.Rect(457, 509, 542, 580), color=None, fill=(1, 1, 1))  # backdrop 2, touching
    shape = page.new_shape()
    shape.draw_rect(pymupdf.Rect(60, 600, 260, 760))
    shape.draw_circle((160, 680), 40)
    shape.finish(color=(0, 0, 0), width=1)
    shape.commit()
    clusters = _drawing_clusters(page)
    assert not any(c[1] < 590 for c in clusters)  # no cluster of the invisible backdrops
    assert any(abs(c[0] - 60) < 3 and abs(c[3] - 760) < 3 for c in clusters)  # the visible drawing


def test_table_takes_a_larger_ruling_only_when_nothing_else_is_inside() -> None:
    """The model boxes a table by its text (a narrow block in a wide ruled frame, 2.3x its area):
    the frame is its ruling when no other element lies inside it; with a paragraph inside, the
    cluster is something larger (a figure, a panel) and the box stays."""
    table = Detection("table", "table", 1.0, (303.0, 442.0, 482.0, 546.0))
    frame = (211.0, 438.0, 581.0, 550.0)
    assert snap_tables_to_rulings([table], [frame])[0].bbox_pdf == frame
    text = Detection("text", "text", 1.0, (220.0, 445.0, 295.0, 500.0))
    assert snap_tables_to_rulings([table, text], [frame])[0] == table
    # a cluster more than 4x the table box is never taken
    assert snap_tables_to_rulings([table], [(100.0, 300.0, 590.0, 700.0)])[0] == table


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_freed_heap_is_trimmed_only_past_the_bound() -> None:
    import ctypes

    from layoutrag.ingest.heap import free_heap_bytes, release_freed_memory

    if free_heap_bytes() is None or not os.path.exists("/proc/self/statm"):
        pytest.skip("not glibc on Linux: nothing to trim")
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    block, n = 64 * 1024, 1600  # below the mmap threshold: heap blocks, ~100 MB, every page touched
    ptrs = [libc.malloc(block) for _ in range(n)]
    for p in ptrs:
        ctypes.memset(p, 1, block)
    for p in ptrs[::2]:  # free every other block: holes the heap cannot give back by shrinking its top
        libc.free(p)
    try:
        free = free_heap_bytes()
        assert free is not None and free >= n // 2 * block * 0.9
        before = _rss_bytes()
        assert release_freed_memory(trim_above=free + 1) is False  # under the bound: nothing happens
        assert _rss_bytes() > before - 8 * 1024 * 1024
        assert release_freed_memory(trim_above=1024 * 1024) is True
        assert _rss_bytes() < before - n // 2 * block * 0.5  # the holes' pages went back to the system
    finally:
        for p in ptrs[1::2]:
            libc.free(p)

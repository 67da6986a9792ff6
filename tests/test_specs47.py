"""specs-47 and the imported cards of the same session: a part name needs a letter; imported codes keep their case;
a crystal with a built-in thermistor is a crystal."""

from __future__ import annotations

import pytest

import layoutrag.chunking.specs as stage
from layoutrag.chunking.card import product_type_in
from layoutrag.chunking.specs import printed_part
from layoutrag.index.importer import derive_card
from layoutrag.records import Chunk, DocumentCard


def _chunk(text: str, toc: str = "") -> Chunk:
    return Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, native_text=text, toc_path=toc)


def test_a_series_cut_back_to_its_digits_is_no_part_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """TXC's "6U Series": the text prints "6" (a pin, a note) but never "6U" alone - the part stays "6U"."""
    card = DocumentCard(doc_id="d", file_name="6u.pdf", series=["6U"])
    chunk = _chunk("Pin 6 Output. Frequency Stability ± 50 ppm, Note 6")
    assert printed_part(card, [chunk]) == "6U"
    # a stem that keeps a letter is still the printed name: OPA130 of the series OPA130P
    card = DocumentCard(doc_id="d", file_name="opa130.pdf", series=["OPA130P"])
    assert printed_part(card, [_chunk("The OPA130 is a precision FET-input op amp. OPA130 pinout")]) == "OPA130"
    monkeypatch.setattr(stage, "STEM_LETTERS", False)
    assert printed_part(DocumentCard(doc_id="d", file_name="6u.pdf", series=["6U"]), [chunk]) == "6"


def test_an_imported_card_keeps_the_codes_as_printed() -> None:
    chunks = [
        Chunk(chunk_id=f"x_p1_b0{i}", doc_id="x", page=1, toc_path="TXC 7M Series MHz Crystal", native_text=t)
        for i, t in enumerate(["Part No. 7M-26.000MAAJ-T", "Ordering: 7M-26.000MAAJ-T, 7M-40.000MAAJ-T"], start=1)
    ]
    card = derive_card("x", chunks)
    assert card.series == ["7M"]
    assert card.part_numbers == ["7M-26.000MAAJ-T"]  # printed twice: a part number, in its printed case
    assert card.product_type == "crystal"


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("TXC TSX OW Series Thermistor Crystal", "crystal"),
        ("Crystal Unit with Thermistor", "crystal"),
        ("NTC Thermistor for temperature sensing", "thermistor"),
    ],
)
def test_a_thermistor_crystal_is_a_crystal(title: str, kind: str) -> None:
    assert product_type_in(title) == kind

"""The document card: part numbers and product type, on generated text, PDFs and sample datasheets."""

from __future__ import annotations

import pytest

from chunk_factory import PageSpec, Spec, build_pdf, make_document, make_element, sample_document
from layoutrag.chunking.card import _alternatives, build_card, part_like_tokens
from layoutrag.chunking.pipeline import build_doc_chunks
from layoutrag.config import Settings
from layoutrag.records import Document, Page


@pytest.mark.parametrize(
    "text",
    [
        "250-mA 2.7-V 14-Bit 2-Wire 4-Lead 100/Bag 000/Reel",  # values and quantities
        "1.8V-2.1V-2.5V-3V-3.5V-5V 3V/5V 3.2X2.5MM",  # value lists, dimensions
        "SOT-23 SOT23 SO14 QFN32 MSOP-8 TO-220",  # packages
        "J-STD-020D UL94 AEC-Q200 IEC61000-4-2 ISO9001-2008",  # standards
        "10BASE-T/100BASE-TX I2C-Bus",  # interfaces
        "Ordering Code1 Control_status_1 DS21909D-page",  # footnote marks, register names, page stamps
        "LM73 SNIS141F –OCTOBER 2005–REVISED OCTOBER 2015",  # a literature number
        "Document number: DS35533 Rev. 8",
        "表单编号：FGH/BD-0053.01-15A 保存期限：长期",  # document-control labels (ISO 9001 forms)
        "文件编号：S&CIC2197) Form No. QF-0712",
    ],
)
def test_non_parts_are_rejected(text):
    assert [t for t in part_like_tokens(text) if t != "LM73"] == []


def test_real_parts_are_kept():
    text = (
        "LM358MX/NOPB MCP9800A0T-M/OT LT1006CS8#PBF K78xx-1000R3 T2-613-1-KK81 ATmega328P "
        "SiT5358AI-FQ033IT PCF8563T/5 KBL06-E4/51 AD824ARZ-14-REEL7 1XTW26000MAA"
    )
    assert part_like_tokens(text) == text.split()


def test_slash_lists_in_a_title_block_are_read_as_parts():
    assert _alternatives("MCP9800/1/2/3") == ["MCP9800", "MCP9801", "MCP9802", "MCP9803"]
    assert _alternatives("LM158/LM258/LM2904") == ["LM158", "LM258", "LM2904"]
    assert _alternatives("KSZ8041NL/RNL") == ["KSZ8041NL", "KSZ8041RNL"]
    assert _alternatives("CH32X035/X033") == ["CH32X035", "CH32X033"]
    for code in ("LM358MX/NOPB", "PCF8563T/5", "DS1307Z/T", "MCP9800A0T-M/OT", "KBL06-E4/51"):
        assert _alternatives(code) == [code]  # ordering codes stay whole


def _ordering_page() -> PageSpec:
    cells = [
        ["Part number", "Package", "Marking"],
        ["QX9800A-T", "SOT-23", "QX0"],
        ["QX9801B-T", "MSOP-8", "QX1"],
    ]
    options = [["Option", "Actuator"], ["SM08", "0.8 mm"], ["SK15", "1.5 mm"]]
    return PageSpec(
        [
            Spec("page_header", (40, 20, 400, 32), "QX9800/1/2 SNOS123A -JANUARY 2020-REVISED MAY 2021", 8),
            Spec("title", (40, 40, 500, 60), "QX9800/1/2 Digital Temperature Sensor", 16, True),
            Spec("text", (40, 66, 550, 78), "Incorporates the industry-standard QX1287 interface", 9),
            Spec("text", (40, 84, 550, 96), "Applications: reference for TCXO and clock applications", 9),
            Spec(
                "text",
                (40, 110, 550, 122),
                "The QX9800 is a digital temperature sensor with a 2-Wire bus.",
                9,
            ),
            Spec("caption", (40, 300, 400, 312), "Ordering Information", 9, True),
            Spec("table", (40, 316, 550, 376), cells=cells),
            Spec("caption", (40, 420, 400, 432), "How to order: options", 9, True),
            Spec("table", (40, 436, 550, 496), cells=options),
            Spec("page_footer", (40, 810, 300, 820), "Document number: DS99123 Rev. 2", 7),
        ]
    )


def test_card_parts_and_type_on_a_generated_pdf(tmp_path):
    # the file name carries a distributor suffix and a category; the metadata title names a document
    doc = build_pdf(tmp_path / "SENSOR-QX9800A-T-1139714.pdf", [_ordering_page()], title="QX9800DS1-EN")
    dc, _ = build_doc_chunks(doc, Settings())
    card = dc.card
    assert card.part_numbers == ["QX9800", "QX9801", "QX9802", "QX9800A-T", "QX9801B-T"]
    # not: the literature / document numbers, the referenced QX1287, the options SM08/SK15, the
    # file name's SENSOR-...-1139714, the metadata title's QX9800DS1-EN, "2-Wire"
    assert card.series[0] == "QX9800"
    assert card.product_type == "temperature sensor"  # not the TCXO the applications line names


def _doc(texts: list[tuple[str, str]], *, file_name: str = "x.pdf") -> Document:
    els = [
        make_element("d", 1, i, label, (40, 300 + 20 * i, 550, 316 + 20 * i), t)
        for i, (label, t) in enumerate(texts)
    ]
    return make_document("d", [Page(page=1, width_pt=595, height_pt=842, elements=els)], file_name=file_name)


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        # the defining sentence beats a neighbour named earlier in a feature list
        (
            [
                ("list_item", "Built-in 48MHz RC oscillator"),
                ("text", "The CH32X035 is an industrial-grade microcontroller based on a RISC-V core."),
            ],
            "microcontroller",
        ),
        # an applications line names what the product serves, not what it is
        (
            [
                ("text", "High-precision TCXO and clock applications"),
                ("text", "HC/49US microprocessor crystal"),
            ],
            "crystal",
        ),
        # a generic type is refined by the subtype a later line names
        ([("text", "ITEM: CRYSTAL OSCILLATOR"), ("text", "Device Name TCXO")], "TCXO"),
        ([("text", "Integrated Off-Line Switcher with Advanced Feature Set")], "AC-DC converter"),
        ([("text", "SMD DC power sockets")], "connector"),
        ([("text", "谐振器产品技术指标")], "crystal"),
        # within a defining sentence the most specific type wins ("MCU-based ... Wi-Fi" is an SoC)
        (
            [
                (
                    "text",
                    "ESP32-C3 is a low-power MCU-based solution that supports 2.4 GHz Wi-Fi and Bluetooth.",
                )
            ],
            "wireless SoC",
        ),
        # distributor categories beyond timing parts: a kind not listed is not given the nearest type
        ([("text", "64K SPI Bus Serial EEPROM"), ("list_item", "ESD protection on all pins > 4 kV")], "EEPROM"),
        ([("text", "CMOS Video Speed 6-Bit Flash A/D Converter")], "ADC"),
        ([("text", "8-Bit D/A Converter")], "DAC"),
        ([("text", "16x2 character LCD module"), ("text", "STN liquid crystal, yellow-green")], "LCD module"),
        ([("text", "Hall-Effect-Based Linear Current Sensor IC")], "current sensor"),
        ([("text", "N-channel 60 V Power MOSFET")], "MOSFET"),
        ([("text", "1A Standalone Linear Li-Ion Battery Charger with Thermal Regulation")], "battery charger"),
    ],
)
def test_product_type_rules(texts, expected):
    assert build_card(_doc(texts), "", []).product_type == expected


def test_labelled_and_file_name_parts():
    doc = _doc(
        [
            ("text", "Part No. FC68145S Taped FC68145ST"),
            ("text", "Model Name DSB321SDN"),
            ("text", "SPEC No. 1XTW26000MAA"),
        ],
        file_name="2410121606_KDS-Daishinku-1XTW26000MAA_C213404.pdf",
    )
    parts = build_card(doc, "", []).part_numbers
    assert parts == ["FC68145S", "DSB321SDN", "1XTW26000MAA"]


# the sample generator's kinds -> the card's product type
_KIND_TYPE = {
    "crystal": "crystal",
    "tuning_fork": "crystal",
    "xo": "oscillator",
    "tcxo": "TCXO",
    "vcxo": "VCXO",
    "rtc": "real-time clock",
}


def test_cards_of_generated_datasheets_match_their_ground_truth(tmp_path):
    used: set[str] = set()
    for i in range(6):  # one document of each kind
        d, doc = sample_document(i, tmp_path, doc_id=f"s{i}", used=used)
        card = build_doc_chunks(doc, Settings())[0].card
        codes = {o.code for o in d.orders}
        assert card.product_type == _KIND_TYPE[d.kind], (d.file_name, card.product_type)
        assert codes <= set(card.part_numbers), (d.file_name, codes - set(card.part_numbers))
        wrong = [p for p in card.part_numbers if p not in codes and p != d.series]
        assert wrong == [], (d.file_name, wrong)
        assert card.series[0] == d.series, (d.file_name, card.series)  # "8Q Series" too


def test_a_series_named_in_the_title_block_is_the_series():
    from layoutrag.chunking.card import _named_series

    assert _named_series("8Q Series\nSMD Crystal Unit") == ["8Q"]
    assert _named_series("HC/49US (AT49) MICROPROCESSOR CRYSTAL ABL SERIES") == ["ABL"]
    assert _named_series("MICROPROCESSOR CRYSTAL SERIES") == []  # a word, not a code
    assert _named_series("7M series 5.0 x 3.2 mm, the ABM5 Series and FC-155 Series") == [
        "7M",
        "ABM5",
        "FC-155",
    ]
    assert _named_series("This series of products") == []

"""The part-aware tokenizer is frozen by golden vectors (a JavaScript port must reproduce them).

Regenerate after a deliberate change with LAYOUTRAG_REGEN_GOLDEN=1 (and bump `version`)."""

from __future__ import annotations

import json
import os

import pytest

from layoutrag.index.glossary import DATA_DIR
from layoutrag.index.tokenizer import (
    STOPWORDS,
    PartAwareTokenizer,
    StandardTokenizer,
    get_tokenizer,
    is_part_like,
)

VECTORS = DATA_DIR / "tokenizer_vectors.json"
REGEN = os.environ.get("LAYOUTRAG_REGEN_GOLDEN") == "1"

INPUTS = [
    "7M-26.000MAAJ-T",
    "ATX-11-F-27.000MHZ-F05-T",
    "SiT5358AI-FQ033IT-19.200000",
    "7m 26.000 maaj t",
    "7M26000MAAJT",
    "32.768kHz",
    "32.768 KHz",
    "32768 Hz",
    "26MHz and 26.000 MHz and 0.026 GHz",
    "±20ppm",
    "± 20 ppm",
    "Frequency Stability ： ± 50 ppm",
    "-40~85℃",
    "-40 to +85 °C",
    "−40°C…85°C",
    "-40℃ ~ +105℃",
    "Load capacitance CL 12 pF, ESR 80 Ω max, drive level 10 µW",
    "Supply voltage 1.8V~3.3V, current 1.5mA",
    "负载电容 CL 是多少",
    "雅晶鑫 TAXM12M4RLBDDT2T 12MHz 晶振负载电容",
    "RV-3032-C7 推荐焊盘尺寸，pad 间距多少",
    "相位噪声 -150dBc/Hz @ 1kHz",
    "Ｆｕｌｌｗｉｄｔｈ　ＦＡ－１２８ 晶体",
    "The phase jitter of the LVDS output is 0.3 ps (12kHz to 20MHz)",
    "TCXO / VCTCXO, AEC-Q200 qualified; RoHS & Pb-free",
    "Package 2.0 x 1.6 x 0.55 mm (2016)",
    "e-mail: sales@example.com, www.example.com/products?id=7",
    "Ⅻ ½ ﬁ ⑤ İstanbul ß",
    "",
    "!!! ??? ...",
    "a",
    "日",
    "これは水晶振動子です",
]


def _golden() -> dict:
    return {
        "version": 1,
        "spec": "layoutrag.index.tokenizer module docstring (PartAwareTokenizer)",
        "stopwords": sorted(STOPWORDS),
        "cases": [
            {
                "text": text,
                "part_aware": PartAwareTokenizer().tokenize(text),
                "part_aware_no_ngrams": PartAwareTokenizer(ngrams=False).tokenize(text),
            }
            for text in INPUTS
        ],
    }


def test_regen_flag_is_off() -> None:
    assert not REGEN, "LAYOUTRAG_REGEN_GOLDEN must not be set in CI"


def test_golden_vectors_byte_for_byte() -> None:
    if REGEN:
        VECTORS.write_text(json.dumps(_golden(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    stored = json.loads(VECTORS.read_text(encoding="utf-8"))
    assert stored["stopwords"] == sorted(STOPWORDS)
    assert [c["text"] for c in stored["cases"]] == INPUTS
    for case in stored["cases"]:
        assert PartAwareTokenizer().tokenize(case["text"]) == case["part_aware"], case["text"]
        assert PartAwareTokenizer(ngrams=False).tokenize(case["text"]) == case["part_aware_no_ngrams"]
    # the serialised form (what a port compares) is stable too
    assert json.dumps(stored, ensure_ascii=False, indent=1) + "\n" == VECTORS.read_text(encoding="utf-8")


def test_part_number_three_ways() -> None:
    toks = PartAwareTokenizer().tokenize("7M-26.000MAAJ-T")
    assert toks[0] == "7m-26.000maaj-t"  # intact
    assert "7m26000maajt" in toks  # compact: other separators meet here
    assert {"7m", "26", "000maaj", "t"} <= set(toks)  # subfields
    assert "#maa" in toks and "#7m2" in toks  # 3-grams without separators
    other = PartAwareTokenizer().tokenize("7m 26.000 maaj t 7M26000MAAJT")
    assert "7m26000maajt" in other


@pytest.mark.parametrize(
    ("a", "b", "shared"),
    [
        ("32.768kHz", "32768 Hz", "32768hz"),
        ("32.768 KHz", "32768Hz", "32768hz"),
        ("26.000 MHz", "26MHz", "26000000hz"),
        ("±20ppm", "± 20 ppm", "±20ppm"),
        ("-40~85℃", "-40 to +85 °C", "-40°c"),
        ("−40°C…85°C", "-40 to +85 °C", "85°c"),
        ("10 µW", "10uW", "10uw"),
        ("80 Ω", "80ohm", "80ohm"),
    ],
)
def test_values_with_units_normalise(a: str, b: str, shared: str) -> None:
    t = PartAwareTokenizer()
    assert shared in t.tokenize(a)
    assert shared in t.tokenize(b)


def test_value_inside_part_number_stays_a_part() -> None:
    toks = PartAwareTokenizer().tokenize("ATX-11-F-27.000MHZ-F05-T")
    assert "27000000hz" not in toks
    assert toks[1] == "atx11f27000mhzf05t"


def test_cjk_bigrams_and_no_ngrams_variant() -> None:
    assert PartAwareTokenizer().tokenize("负载电容") == ["负载", "载电", "电容"]
    assert PartAwareTokenizer().tokenize("日") == ["日"]
    assert not any(t.startswith("#") for t in PartAwareTokenizer(ngrams=False).tokenize("SiT5358AI-FQ033IT"))


def test_stopwords_and_punctuation() -> None:
    assert PartAwareTokenizer().tokenize("what is the load of it") == ["load"]
    assert PartAwareTokenizer().tokenize("!!! ??? ...") == []
    assert StandardTokenizer().tokenize("The 7M-26.000MAAJ-T crystal") == [
        "7m",
        "26",
        "000maaj",
        "t",
        "crystal",
    ]


def test_part_like_rule() -> None:
    assert is_part_like("fa-128") and is_part_like("taxm12m4rlbddt2t") and is_part_like("m1210")
    assert not is_part_like("7m") and not is_part_like("2016") and not is_part_like("crystal")


def test_get_tokenizer_names() -> None:
    assert get_tokenizer("standard").name == "standard"
    assert get_tokenizer("part_aware_no_ngrams").name == "part_aware_no_ngrams"
    with pytest.raises(ValueError, match="valid: part_aware"):
        get_tokenizer("whitespace")

"""The document card: title, vendor, series, part numbers, product type and key parameters.

It feeds the index, so a query naming a series reaches chunks whose own text never repeats it.
Everything comes from rules over the document's own text: part-like tokens in the title block
(page 1's headers, title and first headings) and in ordering / part-numbering tables; vendors
from a list of names datasheets print; product type and key parameters from keyword patterns.
"""

from __future__ import annotations

import re
from collections import Counter

from layoutrag.chunking.group import Group
from layoutrag.records import Document, DocumentCard

__all__ = ["build_card", "part_like_tokens"]

# vendor name as printed -> canonical name
_VENDORS: dict[str, str] = {
    "texas instruments": "Texas Instruments",
    "analog devices": "Analog Devices",
    "linear technology": "Linear Technology",
    "maxim integrated": "Maxim Integrated",
    "dallas semiconductor": "Maxim Integrated (Dallas)",
    "maxim": "Maxim Integrated",
    "microchip": "Microchip",
    "nxp": "NXP",
    "philips": "NXP (Philips)",
    "stmicroelectronics": "STMicroelectronics",
    "espressif": "Espressif",
    "wch": "WCH",
    "nanjing qinheng": "WCH",
    "sitime": "SiTime",
    "epson": "Epson",
    "daishinku": "KDS Daishinku",
    "kds": "KDS Daishinku",
    "txc": "TXC",
    "abracon": "Abracon",
    "micro crystal": "Micro Crystal",
    "vishay": "Vishay",
    "diodes incorporated": "Diodes Incorporated",
    "on semiconductor": "onsemi",
    "onsemi": "onsemi",
    "national semiconductor": "National Semiconductor",
    "allegro": "Allegro MicroSystems",
    "power integrations": "Power Integrations",
    "monolithic power": "Monolithic Power Systems",
    "mps": "Monolithic Power Systems",
    "murata": "Murata",
    "tdk": "TDK",
    "amphenol": "Amphenol",
    "bourns": "Bourns",
    "panasonic": "Panasonic",
    "würth": "Würth Elektronik",
    "wurth": "Würth Elektronik",
    "mornsun": "Mornsun",
    "nxp semiconductors": "NXP",
    "infineon": "Infineon",
    "rohm": "ROHM",
    "cui": "CUI Devices",
    "e-switch": "E-Switch",
    "c&k": "C&K",
    "hosonic": "Hosonic",
    "ecs inc": "ECS",
    "yxc": "YXC",
    "huaxin": "Huaxin",
    "tai-saw": "TAI-SAW",
    "nihon dempa": "NDK",
    "ndk": "NDK",
    "kyocera": "Kyocera",
    "crystek": "Crystek",
    "silicon labs": "Silicon Labs",
    "sgmicro": "SG Micro",
    "richtek": "Richtek",
    "freescale": "NXP (Freescale)",
    "vishay semiconductors": "Vishay",
    "lite-on": "Lite-On",
    "everlight": "Everlight",
    "cirrus logic": "Cirrus Logic",
    "micrel": "Microchip (Micrel)",
}

# product type: first match wins, most specific first
_PRODUCT_TYPES: list[tuple[str, str]] = [
    (r"\btcxo\b|temperature[- ]compensated crystal oscillator", "TCXO"),
    (r"\bocxo\b|oven[- ]controlled", "OCXO"),
    (r"\bvcxo\b|voltage[- ]controlled crystal oscillator", "VCXO"),
    (r"\bmems oscillator|\bmems\b.*oscillator", "MEMS oscillator"),
    (r"real[- ]time clock|\brtc\b|时钟芯片|实时时钟", "real-time clock"),
    (r"crystal oscillator|\bspxo\b|clock oscillator|\boscillator\b", "oscillator"),
    (r"\bcrystal unit|quartz crystal|\bcrystal\b|晶振|晶体", "crystal"),
    (r"ethernet|phy\b|transceiver", "Ethernet transceiver"),
    (r"\bsoc\b|wi-?fi|bluetooth", "wireless SoC"),
    (r"temperature sensor|thermometer|thermal sensor", "temperature sensor"),
    (r"microcontroller|\bmcu\b|单片机|risc-v|\barm\b.*\bcore", "microcontroller"),
    (r"audio codec|\bcodec\b", "audio codec"),
    (r"haptic|motor driver", "haptic driver"),
    (r"low[- ]dropout|\bldo\b|linear regulator|voltage regulator", "voltage regulator"),
    (r"switching regulator|buck|boost|dc[/-]?dc|flyback|converter", "DC-DC converter"),
    (r"comparator", "comparator"),
    (r"operational amplifier|op[- ]?amp", "operational amplifier"),
    (r"current sens", "current sensor"),
    (r"\besd\b|\btvs\b|transient voltage suppress", "ESD protection"),
    (r"bridge rectifier|rectifier", "rectifier"),
    (r"inductor", "inductor"),
    (r"capacitor", "capacitor"),
    (r"resistor", "resistor"),
    (r"transformer", "transformer"),
    (r"encoder", "rotary encoder"),
    (r"tact switch|pushbutton|\bswitch\b", "switch"),
    (r"connector|receptacle|jack|type-c", "connector"),
    (r"ir receiver|infrared", "IR receiver"),
    (r"sensor", "sensor"),
]

_PART_RE = re.compile(r"(?<![\w.-])([A-Z0-9][A-Za-z0-9]*(?:[-./_][A-Za-z0-9]+)*)(?![\w-])")
_ORDERING_RE = re.compile(
    r"order(ing)?\s*(information|code|guide|number)|part\s*(number|no\.?|numbering|identification)|"
    r"how to order|product identification|selection guide|marking|订购|型号",
    re.IGNORECASE,
)
_UNIT_WORDS = {
    "MHZ",
    "KHZ",
    "HZ",
    "GHZ",
    "PPM",
    "PF",
    "NF",
    "UF",
    "MA",
    "UA",
    "NA",
    "MV",
    "KV",
    "MW",
    "DB",
    "DBC",
    "VDC",
    "VAC",
    "VCC",
    "VDD",
    "VIN",
    "VOUT",
    "GND",
    "NC",
    "PCB",
    "SMD",
    "SMT",
    "RoHS",
    "ROHS",
    "REV",
    "ESD",
    "I2C",
    "SPI",
    "USB",
    "QFN",
    "SOP",
    "SOT",
    "DIP",
    "TSSOP",
    "MSOP",
    "DFN",
    "LGA",
    "BGA",
    "PDF",
}

_FREQ_RE = re.compile(
    r"(\d+(?:[.,]\d+)?\s*(?:k|M|G)?Hz\s*(?:to|~|–|-|…|\.\.\.)\s*\d+(?:[.,]\d+)?\s*(?:k|M|G)Hz)|"
    r"(\d+(?:\.\d+)?\s*(?:k|M|G)Hz)"
)
_VOLT_RE = re.compile(r"(\d+(?:\.\d+)?\s*V?\s*(?:to|~|–|-)\s*\d+(?:\.\d+)?\s*V)\b|(\d+(?:\.\d+)?\s*V)\b")
_TEMP_RE = re.compile(
    r"([-−–]\s?\d{2,3}\s*°?\s*C?\s*(?:to|~|–|-|…|\.\.\.)\s*\+?\s?\d{2,3}\s*(?:°\s*C|℃|C\b))"
)
_SIZE_RE = re.compile(
    r"(\d+(?:\.\d+)?\s*[x×]\s*\d+(?:\.\d+)?(?:\s*[x×]\s*\d+(?:\.\d+)?)?\s*mm)", re.IGNORECASE
)


def part_like_tokens(text: str) -> list[str]:
    """Tokens that look like part numbers: letters and digits, length >= 4, not units or values."""
    out: list[str] = []
    for m in _PART_RE.finditer(text or ""):
        t = m.group(1).strip(".-/_")
        if len(t) < 4 or len(t) > 40:
            continue
        if not (re.search(r"\d", t) and re.search(r"[A-Za-z]", t)):
            continue
        if t.upper() in _UNIT_WORDS or re.fullmatch(r"[\d.,]+[A-Za-z]{1,4}", t):
            continue  # 26MHz, 3.3V, 100nF: values with units
        if re.fullmatch(r"(rev|page|fig|table|ver|v|model)[\d.]+", t, re.IGNORECASE):
            continue  # versions, page and figure numbers
        if re.search(r"\d(k|m)?(bits?|bps|kg|g|lead|pin|wire|bag|reel|tube)s?(/s)?$", t, re.IGNORECASE):
            continue  # 400Kbits/s, 4-Lead, 2-Wire, 100/Bag: quantities, not parts
        if re.fullmatch(r"[\d.]+V(/[\d.]+V)+", t):
            continue  # 3V/5V
        if not re.search(r"[A-Z]", t):
            continue  # all-lowercase words with a digit are rarely part numbers
        out.append(t)
    return out


def _title_block_text(doc: Document) -> str:
    if not doc.pages:
        return ""
    p = doc.pages[0]
    els = sorted(p.elements, key=lambda e: e.order)
    parts = [e.text for e in els if e.label in ("title", "page_header")]
    heads = [e.text for e in els if e.label == "section_header"][:3]
    top = [
        e.text for e in els if e.bbox_pdf[3] < p.height_pt * 0.25 and e.label in ("text", "section_header")
    ]
    return "\n".join([*parts, *heads, *top])


def _series_of(parts: list[str], title: str) -> list[str]:
    """Series: the common alphanumeric stem of part numbers (SiT5358 of SiT5358AI-FQ033IT)."""
    stems: Counter[str] = Counter()
    for p in parts:
        m = re.match(r"([A-Za-z]{1,6}-?\d{2,6}[A-Za-z]?)", p)
        if m:
            stems[m.group(1).upper() if m.group(1).isupper() else m.group(1)] += 1
    for t in part_like_tokens(title):
        m = re.match(r"([A-Za-z]{1,6}-?\d{2,6}[A-Za-z]?)", t)
        if m:
            stems[m.group(1)] += 2
    return [s for s, _ in stems.most_common(4)]


def build_card(doc: Document, title: str, groups: list[Group]) -> DocumentCard:
    title_text = _title_block_text(doc)
    all_text_p1 = "\n".join(e.text for e in doc.pages[0].elements) if doc.pages else ""
    parts: list[str] = []
    seen: set[str] = set()

    def add(tokens: list[str]) -> None:
        for t in tokens:
            if t.upper() not in seen:
                seen.add(t.upper())
                parts.append(t)

    add(part_like_tokens(title))
    add(part_like_tokens(title_text))
    for g in groups:
        if g.block_type != "table":
            continue
        label_text = " ".join(m.text for m in g.members if m.label != "table")
        head = " ".join(g.header)
        if _ORDERING_RE.search(label_text) or _ORDERING_RE.search(head):
            for r in g.rows:
                add(part_like_tokens(r.cells[0] if r.cells else r.text))
    # also the file name's own part-like stem (vendors name files after parts)
    add(part_like_tokens(re.sub(r"[_]", " ", doc.file_name.rsplit(".", 1)[0])))
    parts = parts[:40]

    haystack = " ".join(
        [title, title_text, all_text_p1, " ".join(m.text for p in doc.pages[-1:] for m in p.elements)]
    )
    vendor = _vendor(haystack)
    # the title names the product most reliably; page 1's body mentions neighbours (an MCU's oscillator)
    product_type = _product_type(title) or _product_type(title_text) or _product_type(all_text_p1[:3000])
    return DocumentCard(
        doc_id=doc.doc_id,
        file_name=doc.file_name,
        title=title,
        vendor=vendor,
        series=_series_of(parts, title),
        part_numbers=parts,
        product_type=product_type,
        key_parameters=_key_parameters(doc),
    )


def _vendor(text: str) -> str:
    low = text.lower()
    best: tuple[int, str] | None = None
    for name, canon in _VENDORS.items():
        m = re.search(r"(?<![a-z])" + re.escape(name) + r"(?![a-z])", low)
        if m and (
            best is None or m.start() < best[0] or (m.start() == best[0] and len(canon) > len(best[1]))
        ):
            best = (m.start(), canon)
    return best[1] if best else ""


def _product_type(text: str) -> str:
    for pat, name in _PRODUCT_TYPES:
        if re.search(pat, text, re.IGNORECASE):
            return name
    return ""


def _key_parameters(doc: Document) -> dict[str, str]:
    """First plausible value of each key parameter, from page 1 then the rest (first 6 pages)."""
    texts = [e.text for p in doc.pages[:6] for e in sorted(p.elements, key=lambda x: x.order) if e.text]
    out: dict[str, str] = {}
    for t in texts:
        low = t.lower()
        if "frequency_range" not in out and ("frequenc" in low or "hz" in low):
            m = _FREQ_RE.search(t)
            if m and "frequenc" in low:
                out["frequency_range"] = _norm(m.group(0))
        if "supply_voltage" not in out and re.search(r"supply|vdd|vcc|input voltage|电源", low):
            m = _VOLT_RE.search(t)
            if m:
                out["supply_voltage"] = _norm(m.group(0))
        if "temperature_range" not in out and re.search(r"temperature|°c|℃", low):
            m = _TEMP_RE.search(t)
            if m:
                out["temperature_range"] = _norm(m.group(0))
        if "package_size" not in out:
            m = _SIZE_RE.search(t)
            if m:
                out["package_size"] = _norm(m.group(0))
        if len(out) == 4:
            break
    return out


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()

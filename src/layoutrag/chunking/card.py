"""The document card: title, vendor, series, part numbers, product type and key parameters.

It feeds the index, so a query naming a series reaches chunks whose own text never repeats it.
Everything comes from rules over the document's own text: part-like tokens in the title block
(page 1's headers, title and first headings) and in ordering / part-numbering tables; the vendor
from the company the document names as its own (copyright holder, name with a legal form), else
from public manufacturer registries (JEP106, USB and PCI vendor IDs); product type and key parameters from keyword patterns.
The vendor names, product-type patterns and package and standard prefixes are data files under
``layoutrag/data/`` (see `layoutrag.vocab`).

Part numbers are checked against the document: a token from the title (often PDF metadata) or the
file name (distributors add order numbers, categories, "-datasheet") counts only when the
document's text prints it; values with units, packages, standards, interfaces, literature and
document numbers (a token printed before "– JANUARY 2000" or after "Document number:") are never
parts; "MCP9800/1/2/3" and "LM158/LM258" in a title block are read as the parts they list; rows of
an ordering table count when they share a stem with the title block's parts (option codes such as
"SM08" in a how-to-order chart do not). The product type is the earliest type named in the title,
else the title block, else a defining sentence ("The X is a ..."), else page 1, else pages 2-3 —
skipping lines that only name applications ("... for TCXO and clock applications").
"""

from __future__ import annotations

import re
from collections import Counter

from layoutrag import vocab
from layoutrag.chunking.group import Group
from layoutrag.records import Document, DocumentCard

__all__ = ["build_card", "part_like_tokens"]

# vendor name as printed (lower case) -> canonical name: layoutrag/data/vendors.tsv
_VENDORS = vocab.vendors()
# product type (regex, name): first match wins, most specific first: layoutrag/data/product_types.tsv
_PRODUCT_TYPES = vocab.product_types()
_TYPE_RES = [(re.compile(p, re.IGNORECASE), name) for p, name in _PRODUCT_TYPES]
# lines that name what a product is used with or for, not what it is
_APPLICATION_RE = re.compile(
    r"application|ideal for|suitable for|used in|used with|compatible with|replacement|substitut|"
    r"for use with|such as|应用",
    re.IGNORECASE,
)
# "The X is a ...", "X are precision ...", "X 是一款 ..."
_DEFINING_RE = re.compile(
    r"\b(?:is|are)\s+(?:an?\s+|the\s+)?((?:[^.;]|\.(?=\d)){0,160})|是一[款个种]([^。；]{0,60})"
)


_PART_RE = re.compile(r"(?<![\w.-])([A-Z0-9][A-Za-z0-9]*(?:[-./_#][A-Za-z0-9]+)*)(?![\w-])")
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


_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
# a literature / document number: "SNOSBT3I –JANUARY 2000–REVISED ...", "SLCS015A − DECEMBER 1988"
_DOCNUM_AFTER_RE = re.compile(rf"\s*[-–−]\s*(?:{_MONTHS}|revised)\b", re.IGNORECASE)
# ... or "Document number: DS35533", "Publication Order Number: NCP1117/D", "Literature Number: SNOA123",
# or the document-control labels of quality-managed forms (ISO 9001 document control): "Form No.",
# 表单编号 (form number), 文件编号 / 文档编号 (document number), 记录编号 (record number) - "表单编号：
# FGH/BD-0053.01-15A" in a page header, "文件编号：S&CIC2197"
_DOCNUM_BEFORE_RE = re.compile(
    r"(?:(?:document|publication order|literature|doc\.?|form)\s*(?:number|no\.?|#)|表单编号|文件编号|文档编号|记录编号)"
    r"\s*[:：]?\s*\S{0,3}$",
    re.IGNORECASE,
)
# package codes (SOT-23, QFN32): prefixes in layoutrag/data/packages.tsv
_PACKAGE_RE = re.compile(rf"(?:{'|'.join(vocab.package_prefixes())})-?\d+[A-Z]?(?:-\d+)?")
# a package code with its outline variant letters (TO-220FP, TO-220AB, DO-214AC, SOD-123FL); several
# of them joined by "/" ("TO-220/TO-220FP", a title's package list)
_PACKAGE_VARIANT_RE = re.compile(rf"(?:{'|'.join(vocab.package_prefixes())})-?\d+[A-Z]{{0,2}}(?:-\d+)?")


def is_package_code(t: str) -> bool:
    """`t` names package outlines, not a part: "TO-220", "TO-220FP", "TO-220/TO-220FP", "SOT-23-5"."""
    pieces = [x for x in t.upper().split("/") if x]
    return bool(pieces) and all(_PACKAGE_VARIANT_RE.fullmatch(x) for x in pieces)


# cited standards (J-STD-020D, UL94, AEC-Q200): prefixes in layoutrag/data/standards.tsv
_STANDARD_RE = re.compile(rf"(?:{'|'.join(vocab.standard_prefixes())})-?\d[\w.-]*", re.IGNORECASE)
_ORDER_SUFFIXES = {"NOPB", "TR", "PBF", "REEL", "TAPE", "BULK"}


def part_like_tokens(text: str) -> list[str]:
    """Tokens that look like part numbers: letters and digits, length >= 4, not units or values,
    packages, standards, interfaces or document numbers."""
    out: list[str] = []
    text = text or ""
    for m in _PART_RE.finditer(text):
        t = m.group(1).strip(".-/_#")
        if _is_part_token(t) and not _is_document_number(text, m):
            out.append(t)
    return out


def _is_part_token(t: str) -> bool:
    if len(t) < 4 or len(t) > 40:
        return False
    if not (re.search(r"\d", t) and re.search(r"[A-Za-z]", t)):
        return False
    if t.upper() in _UNIT_WORDS or re.fullmatch(r"[\d.,]+-?[A-Za-z]{1,4}", t):
        return False  # 26MHz, 3.3V, 100nF, 250-mA, 14-Bit, 2-Wire, 4-Lead: values with units
    if re.fullmatch(r"(rev|page|fig|table|ver|v|model)[\d.]+", t, re.IGNORECASE):
        return False  # versions, page and figure numbers
    if re.search(r"\d(k|m)?(bits?|bps|kg|g|lead|pin|wire|bag|reel|tube)s?(/s)?$", t, re.IGNORECASE):
        return False  # 400Kbits/s, 4-Lead, 2-Wire, 100/Bag: quantities, not parts
    if re.fullmatch(r"[\d,]+/[A-Za-z]+", t):
        return False  # 000/Reel
    if re.fullmatch(r"[\d.]+[A-Za-z]{1,4}(?:[-/~][\d.]+[A-Za-z]{1,4})+", t):
        return False  # 3V/5V, 1.8V-2.1V-2.5V: lists of values
    if re.fullmatch(r"[\d.]+[xX×*][\d.]+(?:[xX×*][\d.]+)?(?:mm)?", t, re.IGNORECASE):
        return False  # 3.2X2.5MM: dimensions
    if _PACKAGE_RE.fullmatch(t.upper()) or _STANDARD_RE.fullmatch(t):
        return False  # SOT-23, SO14, QFN32; J-STD-020D, UL94, AEC-Q200, IEC61000-4-2
    if re.fullmatch(r"\d+BASE-[A-Z0-9]+(?:/\d+BASE-[A-Z0-9]+)*", t, re.IGNORECASE):
        return False  # 10BASE-T/100BASE-TX
    segs = re.split(r"[-/_]", t)
    if segs[0].upper() in _UNIT_WORDS and len(segs) > 1 and all(x.isalpha() for x in segs[1:]):
        return False  # I2C-Bus, USB-Host
    if re.fullmatch(r"[A-Z][a-z]{2,}\d{1,2}", t) or re.search(r"[a-z]{6,}", t) or t.lower().endswith("-page"):
        return False  # Code1, Note2 (footnote marks), Control_status_1, DS21909D-page
    if re.search(rf"(?:^|[-/])(?:{_MONTHS}|revised)(?:$|[-/])", t, re.IGNORECASE):
        return False  # 2020-REVISED, JANUARY-2000: dates
    if not re.search(r"[A-Z]", t):
        return False  # all-lowercase words with a digit are rarely part numbers
    return True


def _is_document_number(text: str, m: re.Match[str]) -> bool:
    if _DOCNUM_AFTER_RE.match(text, m.end()):
        return True
    return bool(_DOCNUM_BEFORE_RE.search(text[max(0, m.start() - 40) : m.start()]))


def _alternatives(token: str) -> list[str]:
    """The parts a title-block token lists: LM158/LM258 -> both, MCP9800/1/2/3 -> MCP9800..MCP9803,
    KSZ8041NL/RNL -> KSZ8041NL, KSZ8041RNL, CH32X035/X033 -> CH32X035, CH32X033. A token whose
    slash parts are no such list (an ordering code like LM358MX/NOPB) is kept as it is."""
    if "/" not in token:
        return [token]
    base, *alts = token.split("/")
    if not _is_part_token(base):
        return [token]
    out = [base]
    for alt in alts:
        if _is_part_token(alt) and alt[:2].upper() == base[:2].upper():
            cand = alt
        elif not alt or len(alt) >= len(base) or alt.upper() in _ORDER_SUFFIXES:
            return [token]
        elif alt.isdigit():
            if not base[-len(alt) :].isdigit():
                return [token]
            cand = base[: -len(alt)] + alt
        elif alt.isalpha():
            m = re.fullmatch(r"(.*\d)([A-Za-z]+)", base)
            if not m or len(alt) < 2:
                return [token]
            cand = m.group(1) + alt
        else:
            head = base[-len(alt)]
            if head.isalpha() != alt[0].isalpha():
                return [token]
            cand = base[: -len(alt)] + alt
        out.append(cand)
    return out


def _join_code(cell: str) -> str:
    """A code cell as printed: table text extraction can split a code at its separators
    ("8Q -12 .000MDGD-T" for 8Q-12.000MDGD-T)."""
    return re.sub(r"(?<=[\w.-])\s+(?=[-.]\w)|(?<=\w[-.])\s+(?=\w)", "", cell)


def _stem(part: str) -> str:
    """The first three characters of a part's first segment: TL7 of TL714C, 8Q of 8Q-12.000M."""
    return _compact(re.split(r"[-./_# ]", part)[0])[:3]


def _compact(s: str) -> str:
    return re.sub(r"[^0-9A-Z]", "", s.upper())


def _dash_norm(s: str) -> str:
    return re.sub(r"[‐‑‒–—−]", "-", s)


def _title_block_text(doc: Document) -> str:
    if not doc.pages:
        return ""
    p = doc.pages[0]
    els = sorted(p.elements, key=lambda e: e.order)
    parts = [e.text for e in els if e.label in ("title", "page_header")]
    heads = [e.text for e in els if e.label == "section_header"][:3]
    top = [
        e.text for e in els if e.bbox_pdf.y1 < p.height_pt * 0.25 and e.label in ("text", "section_header")
    ]
    return "\n".join([*parts, *heads, *top])


# "8Q Series", "ABM5 series", "7M SERIES": the title block names the series outright
_NAMED_SERIES_RE = re.compile(r"(?<![\w-])([A-Z0-9][A-Za-z0-9-]{0,11})\s+(?:series|SERIES|Series)\b")
_NOT_SERIES = {"THE", "THIS", "OUR", "A", "AN", "AND", "OF", "FOR", "PRODUCT", "NEW"}


def _named_series(title_text: str) -> list[str]:
    """Series the title block names with the word "series": a code with a digit (8Q, 7M, ABM5: a
    stem that starts with a digit is never found from part-number stems) or a short upper-case
    code (ABL); a plain word ("crystal series") is not one."""
    out: list[str] = []
    for m in _NAMED_SERIES_RE.finditer(title_text):
        name = m.group(1).strip("-")
        coded = any(ch.isdigit() for ch in name) or (name.isupper() and 2 <= len(name) <= 4)
        coded = coded and any(ch.isalpha() for ch in name)  # "525 Series" of PTS 525: not a name
        if name.upper() not in _NOT_SERIES and coded and name not in out:
            out.append(name)
    return out


def _series_of(parts: list[str], title_parts: list[str], named: list[str] | None = None) -> list[str]:
    """Series: the ones the title block names ("8Q Series"), then the common alphanumeric stem of
    part numbers (SiT5358 of SiT5358AI-FQ033IT)."""
    stems: Counter[str] = Counter()
    for n in named or []:
        stems[n] += 10
    for p in parts:
        m = re.match(r"([A-Za-z]{1,6}-?\d{2,6}[A-Za-z]?)", p)
        if m:
            stems[m.group(1).upper() if m.group(1).isupper() else m.group(1)] += 1
    for t in title_parts:
        m = re.match(r"([A-Za-z]{1,6}-?\d{2,6}[A-Za-z]?)", t)
        if m:
            stems[m.group(1)] += 2
    return [s for s, _ in stems.most_common(4)]


class _DocText:
    """The document's text, to check that a candidate part is printed in it (dashes normalised)."""

    def __init__(self, doc: Document) -> None:
        text = _dash_norm("\n".join(e.text for p in doc.pages for e in p.elements if e.text))
        self._by_upper: dict[str, str] = {}
        for m in _PART_RE.finditer(text):
            for t in {m.group(1).strip(".-/_#"), *m.group(1).strip(".-/_#").split("/")}:
                self._by_upper.setdefault(t.upper(), t)

    def find(self, token: str) -> str | None:
        """The token as the document prints it (case-insensitive match), else None."""
        return self._by_upper.get(_dash_norm(token).upper())


# a part number printed after its label: "Part No. FC68145S", "Model Name DSB321SDN", "P/N: X1"
_LABELLED_RE = re.compile(
    r"(?:part\s*(?:no\.?|number|#)|\bp/n|\bmodel(?:\s*name)?|\btype\s*[:：]|型号|料号)\s*[:：.]?\s*"
    r"([A-Z0-9][A-Za-z0-9]*(?:[-./_#][A-Za-z0-9]+)*)",
    re.IGNORECASE,
)
# lines naming other products: "Incorporates industry standard DS1287", "Pin compatible with LM78xx"
_REFERENCE_RE = re.compile(
    r"compatib|replac|industry[- ]standard|substitut|upgrade|alternative|instead of|similar to|"
    r"second[- ]source|pin[- ]for[- ]pin|兼容|替代",
    re.IGNORECASE,
)


def build_card(doc: Document, title: str, groups: list[Group]) -> DocumentCard:
    title_text = _title_block_text(doc)
    all_text_p1 = "\n".join(e.text for e in doc.pages[0].elements) if doc.pages else ""
    printed = _DocText(doc)
    parts: list[str] = []
    seen: set[str] = set()

    def add(tokens: list[str]) -> None:
        for t in tokens:
            if t.upper() not in seen:
                seen.add(t.upper())
                parts.append(t)

    # the title is often PDF metadata ("CH390DS1-EN", another product's name): printed tokens only
    title_parts = [a for t in part_like_tokens(title) if (f := printed.find(t)) for a in _alternatives(f)]
    block = [
        a
        for line in title_text.splitlines()
        if not _REFERENCE_RE.search(line) and not _APPLICATION_RE.search(line)
        for t in part_like_tokens(line)
        for a in _alternatives(t)
    ]
    labelled = [
        t
        for p in doc.pages[:2]
        for e in p.elements
        for m in _LABELLED_RE.finditer(e.text or "")
        if _is_part_token(t := m.group(1).strip(".-/_#")) and not _PACKAGE_RE.fullmatch(t.upper())
    ]
    file_parts = _file_name_parts(doc, printed, title + "\n" + title_text)
    # stems the parts of ordering tables must share: "TL7" of TL714C, "8Q" of 8Q-12.000MDGD-T
    anchors = {a for p in [*title_parts, *block, *labelled, *file_parts] if len(a := _stem(p)) >= 2}
    add(title_parts)
    add(block)
    add(labelled)
    for g in groups:
        if g.block_type != "table":
            continue
        label_text = " ".join(m.text for m in g.members if m.label != "table")
        head = " ".join(g.header)
        if _ORDERING_RE.search(label_text) or _ORDERING_RE.search(head):
            for r in g.rows:
                for t in part_like_tokens(_join_code(r.cells[0]) if r.cells else r.text):
                    if anchors and not any(_compact(t).startswith(a) for a in anchors):
                        continue  # an option code of a how-to-order chart, not a part
                    if re.search(r"\d\d$", t) and t[:-1].upper() in seen:
                        continue  # "ESP32-C33": a footnote mark glued to a known part
                    add([t])
    # a file name's stem of a part already found ("esp32" of ESP32-C3) adds nothing but a neighbour
    add([f for f in file_parts if not any(_compact(p).startswith(_compact(f)) for p in parts)])
    parts = parts[:40]

    haystack = " ".join(
        [title, title_text, all_text_p1, " ".join(m.text for p in doc.pages[-1:] for m in p.elements)]
    )
    vendor = _vendor(haystack)
    return DocumentCard(
        doc_id=doc.doc_id,
        file_name=doc.file_name,
        title=title,
        vendor=vendor,
        series=_series_of(parts, title_parts, named=_named_series(title_text)),
        part_numbers=parts,
        product_type=_doc_product_type(doc, title, title_text),
        key_parameters=_key_parameters(doc),
    )


def _file_name_parts(doc: Document, printed: _DocText, title_text: str) -> list[str]:
    """The file name's part-like tokens (vendors name files after parts) that the document prints:
    distributors add order numbers ("-1139714"), categories ("ESD-") and "-datasheet". An all-digit
    name (Würth's 750315371) counts when the title block prints it too."""
    out: list[str] = []
    for raw in re.split(r"[\s_]+", doc.file_name.rsplit(".", 1)[0]):
        for cand in [raw, *raw.split("-")]:
            f = printed.find(cand)
            if f and (
                _is_part_token(f) or (re.fullmatch(r"\d{6,12}", f) and re.search(rf"\b{f}\b", title_text))
            ):
                out.append(f)
                break
    return out


# a company as it names itself: "© 2019 TXC Corporation", "Murata Manufacturing Co., Ltd.",
# "Copyright 2008 by Analog Devices", "深圳市XX电子有限公司" (names run on spaces, never over a line)
_NAME = r"[A-Z][\w&.\-]*(?:[ \t]+(?:&|[A-Z][\w&.\-]*|of|de|and)){0,4}"
_LEGAL_FORM = (
    r"(?:Co\.?,?[ \t]*Ltd\.?|Incorporated|Inc\.|Inc\b|Corporation|Corp\.|GmbH|AG\b|LLC|L\.L\.C\.|"
    r"Ltd\.?|Limited|N\.V\.|B\.V\.|S\.A\.|K\.K\.|Pte\.?[ \t]*Ltd|plc\b)"
)
_YEARS = r"\d{4}(?:[ \t]*[-–,][ \t]*\d{4})*[ \t]*,?[ \t]*"
_COPYRIGHT_RE = re.compile(  # "© [Copyright] [years] [by] NAME" or "Copyright [©] years [by] NAME"
    r"(?:(?:©|\([cC]\))[ \t]*(?:(?i:copyright)[ \t]*)?(?:" + _YEARS + r")?"
    r"|(?i:copyright)[ \t]*(?:(?:©|\([cC]\))[ \t]*)?" + _YEARS + r")"
    r"(?:by[ \t]+)?(" + _NAME + r")"
)
_LEGAL_RE = re.compile(r"(?<![\w&])(" + _NAME + r"),?[ \t]+" + _LEGAL_FORM)
_LEGAL_ZH_RE = re.compile(r"([\u4e00-\u9fff]{2,16}?)(?:股份)?有限公司")
_LEGAL_TAIL_RE = re.compile(r"(?:[,\s]+" + _LEGAL_FORM + r"\.?|[\s,.]+)$", re.IGNORECASE)
_NOT_A_NAME = re.compile(r"^(?:all|the|this|and|of|by|inc|ltd|co|rights?|reserved)$", re.IGNORECASE)
# words of a company's legal name that say what kind of company, never which one
_GENERIC_COMPANY_WORDS = frozenset(
    "electronic electronics microelectronics semiconductor semiconductors technology technologies industries "
    "industrial components products systems devices instruments international group holdings company "
    "science manufacturing corporation".split()
)
_WORD_RE = re.compile(r"[a-z0-9\u4e00-\u9fff][a-z0-9&'\-.\u4e00-\u9fff]*")
_MAX_NAME_WORDS = max((k.count(" ") + 1 for k in _VENDORS), default=1)


def _registry_names(text: str, *, whole_only: bool = False) -> list[tuple[int, str]]:
    """(position, printed name) of the registry's vendor names in `text`, longest name first at a
    position. In free text a name is a whole registry name or an uncommon first word of 4+
    characters ("murata"); acronyms ("ecs", "dsp") count only inside a company's own name, where
    they cannot be datasheet jargon; `whole_only` keeps names of several words only."""
    low = text.lower()
    words = [(m.start(), m.group().rstrip(".")) for m in _WORD_RE.finditer(low)]
    out: list[tuple[int, str]] = []
    for i, (pos, _) in enumerate(words):
        for n in range(min(_MAX_NAME_WORDS, len(words) - i), 0, -1):
            key = " ".join(w for _, w in words[i : i + n])
            if key in _VENDORS and (n > 1 or (not whole_only and len(key) >= 4)):
                out.append((pos, key))
                break
    return out


def _vendor(text: str) -> str:
    """The document's vendor: the company it names as its own (copyright holder first, then the
    company printed most often with a legal form), mapped to the registry's name when the registry
    knows the whole name; else the earliest registry vendor named in the text
    (layoutrag/data/vendors.tsv, built from public registries by tools/vendor_registry.py)."""
    own = _own_company(text)
    if own:
        return own
    found = _registry_names(text)
    if not found:
        return ""
    counts = Counter(_VENDORS[k] for _, k in found)
    return max(counts, key=lambda v: (counts[v], -next(i for i, (_, k) in enumerate(found) if _VENDORS[k] == v)))


def _own_company(text: str) -> str:
    """The company the text names as its own. Names are grouped by their first word ("CLIFF" of a
    copyright line and "Cliff Electronic Components Limited" are one company); a copyright line
    weighs three legal-form mentions; the group printed most (then first) wins, under the name it
    prints with a legal form, else its most frequent name."""
    groups: dict[str, Counter[str]] = {}
    legal: dict[str, str] = {}
    first: dict[str, int] = {}
    for weight, rx in ((3, _COPYRIGHT_RE), (1, _LEGAL_RE), (1, _LEGAL_ZH_RE)):
        for m in rx.finditer(text):
            name = _company_name(m.group(1))
            if not name:
                continue
            key = name.split()[0].lower()
            groups.setdefault(key, Counter())[name] += weight
            first.setdefault(key, m.start())
            if rx is not _COPYRIGHT_RE:
                legal.setdefault(key, name)
    if not groups:
        return ""
    best = max(groups, key=lambda k: (sum(groups[k].values()), -first[k]))
    return legal.get(best) or groups[best].most_common(1)[0][0]


def _company_name(raw: str) -> str:
    name = re.split(r"(?i)\ball rights\b|\.[ \t]", raw)[0]
    name, prev = name.strip(), ""
    while name != prev:  # drop the legal form, trailing punctuation and stray words at either end
        prev = name
        words = _LEGAL_TAIL_RE.sub("", name).strip().split()
        while words and _NOT_A_NAME.match(words[-1].strip(".,")):
            words.pop()
        while words and _NOT_A_NAME.match(words[0].strip(".,")):
            words.pop(0)
        name = " ".join(words)
    if len(name) < 2 or not re.search(r"[A-Za-z\u4e00-\u9fff]", name):
        return ""
    if all(w.lower().strip(".,&") in _GENERIC_COMPANY_WORDS for w in words):
        return ""
    whole = _registry_names(name, whole_only=True)  # the registry's name for a name it knows whole
    return _VENDORS[whole[0][1]] if whole else name


def _product_type(text: str, *, first: bool = True, among: tuple[str, ...] = ()) -> str:
    """The type named first in `text` (at one position the more specific pattern wins; with
    ``first=False`` the most specific one anywhere), skipping lines that only say what the product
    is used with ("... TCXO and clock applications"); `among` limits the types looked for."""
    best: tuple[int, int, str] | None = None
    pos = 0
    for line in (text or "").splitlines(keepends=True):
        if not _APPLICATION_RE.search(line):
            for rank, (rx, name) in enumerate(_TYPE_RES):
                if among and name not in among:
                    continue
                m = rx.search(line)
                at = pos + m.start() if m and first else 0
                if m and (best is None or (at, rank) < best[:2]):
                    best = (at, rank, name)
        pos += len(line)
    return best[2] if best else ""


def product_type_in(text: str, *, first: bool = True, among: tuple[str, ...] = ()) -> str:
    """The product type `text` names (data/product_types.tsv), as :func:`_product_type` reads it."""
    return _product_type(text, first=first, among=among)


# a generic type a later page may name more precisely ("CRYSTAL OSCILLATOR" ... "Device Name TCXO")
_REFINE = {
    "oscillator": ("TCXO", "OCXO", "VCXO", "MEMS oscillator"),
    "sensor": ("temperature sensor", "current sensor"),
    "transceiver": ("Ethernet transceiver",),
}


def _doc_product_type(doc: Document, title: str, title_text: str) -> str:
    """Title, then title block, then a defining sentence (pages 1-2), then page 1, then pages 2-3;
    a generic type is refined by a subtype pages 1-3 name."""
    pages = [sorted(p.elements, key=lambda e: e.order) for p in doc.pages[:3]]
    body = [
        "\n".join(e.text for e in els if e.text and e.label not in ("page_header", "page_footer"))
        for els in pages
    ]
    found = _first_product_type(body, title, title_text)
    if found in _REFINE:
        return _product_type("\n".join(body), among=_REFINE[found]) or found
    return found


def _first_product_type(body: list[str], title: str, title_text: str) -> str:
    for text in (title, title_text):
        if t := _product_type(text):
            return t
    for text in body[:2]:
        for m in _DEFINING_RE.finditer(re.sub(r"\s+", " ", text)):
            if t := _product_type(m.group(1) or m.group(2) or "", first=False):
                return t
    for text in body:
        if t := _product_type(text):
            return t
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

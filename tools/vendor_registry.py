"""Build ``src/layoutrag/data/vendors.tsv`` from public manufacturer registries (not from the dev set).

Sources (Debian packages, fetched with ``apt-get download``; nothing is fetched at run time):

- JEDEC JEP106 manufacturer identification codes, as tabulated in i2c-tools' ``decode-dimms``
  (Debian ``i2c-tools``; the ``@vendors`` banks);
- the USB-IF vendor IDs list (Debian ``usb.ids``: ``/var/lib/usbutils/usb.ids``);
- the PCI-SIG vendor IDs list (Debian ``pci.ids``: ``/usr/share/misc/pci.ids``).

A registry name becomes the canonical vendor with its legal form dropped ("Murata Manufacturing
Co., Ltd" -> "Murata Manufacturing"); a parenthesised former name ("Freescale (former Motorola)")
maps to it too. The printed names matched in a document are the whole canonical name and, when it
is not a common English word, its first word ("murata"). Common means an English Zipf frequency
of at least ``COMMON_ZIPF`` in the ``wordfreq`` package (word frequencies from Wikipedia,
subtitles, news, books and web text): "Texas", "Analog", "Linear", "National" are never a vendor
on their own, "Texas Instruments" is. Where two registries give one printed name, the earlier
source wins (JEP106, then USB, then PCI).

    mkdir -p /tmp/reg && cd /tmp/reg && apt-get download i2c-tools usb.ids pci.ids \\
        && for f in *.deb; do dpkg-deb -x "$f" x; done
    pip install wordfreq   # build-time only
    .venv/bin/python tools/vendor_registry.py /tmp/reg/x > src/layoutrag/data/vendors.tsv

Documents whose vendor no registry names are handled by a method, not by this list: the card
reads the copyright holder and the company printed with a legal form (chunking/card.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from layoutrag.chunking.card import _GENERIC_COMPANY_WORDS, _WORD_RE

COMMON_ZIPF = 3.0
_LEGAL = re.compile(
    r"[,\s]+(?:co\.?,?\s*ltd\.?|co\.?|ltd\.?|limited|inc\.?|incorporated|corp\.?|corporation|company|"
    r"gmbh(?:\s*&\s*co\.?\s*kg)?|ag|llc|l\.l\.c\.|plc|s\.a\.|s\.p\.a\.|n\.v\.|b\.v\.|k\.k\.|a/s|ab|oy|"
    r"pte\.?|pty\.?|sa|srl|s\.r\.l\.|bv|nv|kg|se)\.?$",
    re.IGNORECASE,
)
_FORMER = re.compile(r"\s*\((?:former(?:ly)?|was|now part of|acquired by)?\s*([^()]*)\)\s*", re.IGNORECASE)


def jep106(root: Path) -> list[str]:
    text = (root / "usr/bin/decode-dimms").read_text(encoding="latin-1")
    block = text[text.index("@vendors = (") : text.index(");", text.index("@vendors = ("))]
    return re.findall(r'"([^"]+)"', block)


def ids_file(path: Path) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("# List of known device classes"):
            break
        m = re.match(r"^[0-9a-fA-F]{4}\s{2}(.+)$", line)
        if m:
            out.append(m.group(1))
    return out


def strip_legal(name: str) -> str:
    name = re.sub(r"\s+", " ", name).strip(" ,.;")
    while True:
        new = _LEGAL.sub("", name).strip(" ,.;")
        if new == name:
            return name
        name = new


def entries(raw: str) -> tuple[str, list[str]] | None:
    """(canonical name, former names) of one registry line; None for placeholders."""
    formers = [strip_legal(m.group(1)) for m in _FORMER.finditer(raw)]
    base = strip_legal(_FORMER.sub(" ", raw))
    if not base or re.search(r"unknown|reserved|invalid|^\W*$|^[\d\W]+$", base, re.IGNORECASE):
        return None
    return base, [f for f in formers if f and f.lower() != base.lower()]


def printed_names(name: str, zipf) -> list[tuple[str, str]]:  # noqa: ANN001 - wordfreq.zipf_frequency
    """(printed name, canonical name) pairs of one registry name: the whole name, and its first
    word alone (standing for itself: "Murata" of "Murata Manufacturing") when that is no common
    English word."""
    low = " ".join(m.group().rstrip(".") for m in _WORD_RE.finditer(name.lower()))  # as the card reads text
    words = name.split()
    if len(low) < 3 or not re.search(r"[a-z]", low):
        return []
    if all(w.strip(".,&") in _GENERIC_COMPANY_WORDS for w in low.split()):
        return []  # "Microelectronics", "Semiconductor Systems": what kind of company, not which
    out = []
    if len(words) > 1 or zipf(low, "en") < COMMON_ZIPF:
        out.append((low, name))
    first = words[0].strip(",.")
    first_key = low.split()[0] if low.split() else ""
    if (
        len(words) > 1
        and len(first_key) >= 3
        and re.search(r"[a-zA-Z]", first)
        and first_key not in _GENERIC_COMPANY_WORDS
        and zipf(first_key, "en") < COMMON_ZIPF
    ):
        out.append((first_key, first))
    return out


def main() -> None:
    from wordfreq import zipf_frequency

    root = Path(sys.argv[1])
    sources = [
        ("JEP106 (i2c-tools decode-dimms)", jep106(root)),
        ("USB vendor IDs (usb.ids)", ids_file(root / "var/lib/usbutils/usb.ids")),
        ("PCI vendor IDs (pci.ids)", ids_file(root / "usr/share/misc/pci.ids")),
    ]
    table: dict[str, str] = {}
    counts = []
    for label, names in sources:
        n0 = len(table)
        for raw in names:
            e = entries(raw)
            if e is None:
                continue
            canon, formers = e
            for printed, name in printed_names(canon, zipf_frequency):
                table.setdefault(printed, name)
            for f in formers:
                for printed, _ in printed_names(f, zipf_frequency):
                    table.setdefault(printed, canon)
        counts.append(f"{label}: {len(names)} names, {len(table) - n0} printed names added")
    print("# printed name<TAB>canonical name - the vendors a document card recognises (chunking/card.py).")
    print("# Source: public manufacturer registries, not the dev datasheets (tools/vendor_registry.py):")
    for c in counts:
        print(f"#   {c}")
    print("# (Debian bookworm packages i2c-tools 4.3, usb.ids 2025.07.26, pci.ids 2023.04.11; first word")
    print(f"# of a name only when its English Zipf frequency in wordfreq is below {COMMON_ZIPF}).")
    print("# Documents of vendors no registry names get theirs from the copyright / legal-form line.")
    for printed, canon in table.items():
        if "\t" in printed or "\t" in canon:
            continue
        print(f"{printed}\t{canon}")


if __name__ == "__main__":
    main()

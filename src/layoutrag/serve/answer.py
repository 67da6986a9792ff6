"""Answers over evidence packages, citing them as [E1], [E2] … — or saying the evidence lacks it.

The model sees only the numbered evidence (text, page, section, the matched table row) and is told
to answer from it alone, to cite every fact, and to reply with a fixed marker when the evidence
does not hold the answer. Citations are parsed back and checked against the evidence numbers; an
answer that cites nothing valid is not passed off as grounded.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from layoutrag.llm import OpenAICompatible
from layoutrag.records import EvidencePackage

__all__ = [
    "NOT_IN_EVIDENCE",
    "Answer",
    "Citation",
    "answer_question",
    "build_messages",
    "evidence_list",
    "parse_citations",
]

NOT_IN_EVIDENCE = "NOT_IN_EVIDENCE"
EVIDENCE_TEXT_CHARS = 1800
CITATION_RE = re.compile(r"\[E(\d{1,3})\]")

SYSTEM_PROMPT = f"""You answer questions about engineering datasheets.
Use ONLY the numbered evidence below. Never use outside knowledge and never guess or invent values,
units, part numbers or conditions.
Cite every fact with the label of the evidence it comes from, in square brackets: [E1], [E2].
Quote values exactly as written in the evidence, with their units and conditions.
If the evidence does not contain the answer, reply with exactly {NOT_IN_EVIDENCE} and nothing else.
Answer in the language of the question, in at most a few sentences."""


class Citation(BaseModel):
    label: str  # "E1"
    n: int  # 1-based evidence number
    chunk_id: str
    doc_id: str
    page: int


class Answer(BaseModel):
    status: Literal["answered", "not_in_evidence", "uncited", "off"]
    answer: str = ""
    citations: list[Citation] = Field(default_factory=list)
    message: str = ""  # what the UI shows next to the answer


def _evidence_block(n: int, hit: EvidencePackage) -> str:
    where = f"document {hit.source_pdf.rsplit('/', 1)[-1] or hit.doc_id}, page {hit.page}"
    lines = [f"[E{n}] {hit.block_type} — {where}"]
    if hit.toc_path or hit.section_title:
        lines.append(f"Section: {hit.toc_path or hit.section_title}")
    if hit.header:
        lines.append("Table header: " + " | ".join(hit.header))
    if hit.matched_row is not None and 0 <= hit.matched_row < len(hit.rows):
        row = hit.rows[hit.matched_row]
        lines.append("Matched row: " + (" | ".join(row.cells) if row.cells else row.text))
    lines.append(hit.native_text[:EVIDENCE_TEXT_CHARS])
    return "\n".join(lines)


def evidence_list(hits: list[EvidencePackage]) -> list[EvidencePackage]:
    """One evidence item per chunk: each hit, then its companions, so [En] names a single block."""
    return [x for h in hits for x in (h.model_copy(update={"companions": []}), *h.companions)]


def build_messages(question: str, hits: list[EvidencePackage]) -> list[dict]:
    evidence = "\n\n".join(_evidence_block(i, h) for i, h in enumerate(hits, start=1))
    user = f"Evidence:\n\n{evidence}\n\nQuestion: {question}"
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def parse_citations(text: str, hits: list[EvidencePackage]) -> list[Citation]:
    """The distinct valid [En] labels in order of first use; labels past the evidence are dropped."""
    out: list[Citation] = []
    seen: set[int] = set()
    for m in CITATION_RE.finditer(text):
        n = int(m.group(1))
        if 1 <= n <= len(hits) and n not in seen:
            seen.add(n)
            h = hits[n - 1]
            out.append(Citation(label=f"E{n}", n=n, chunk_id=h.chunk_id, doc_id=h.doc_id, page=h.page))
    return out


def _strip_invalid_citations(text: str, n_hits: int) -> str:
    return CITATION_RE.sub(lambda m: m.group(0) if 1 <= int(m.group(1)) <= n_hits else "", text).strip()


def answer_question(question: str, hits: list[EvidencePackage], llm: OpenAICompatible | None) -> Answer:
    """Ask `llm` to answer from `hits`; without an LLM (feature off) return status "off"."""
    if llm is None:
        return Answer(
            status="off",
            message="Answers are off (set LAYOUTRAG_LLM_BASE_URL to an OpenAI-compatible endpoint). "
            "The evidence is below.",
        )
    if not hits:
        return Answer(status="not_in_evidence", message="No evidence was found for this question.")
    reply = llm.chat(build_messages(question, hits)).strip()  # BackendError when the endpoint fails
    if not reply or NOT_IN_EVIDENCE in reply:
        return Answer(
            status="not_in_evidence",
            message="The evidence does not contain the answer; nothing was invented. "
            "Check the evidence below or rephrase the question.",
        )
    citations = parse_citations(reply, hits)
    text = _strip_invalid_citations(reply, len(hits))
    if not citations:
        return Answer(
            status="uncited",
            answer=text,
            message="The model's answer cites no evidence; treat it as unverified.",
        )
    return Answer(
        status="answered",
        answer=text,
        citations=citations,
        message="Every claim cites its evidence; open [E1], [E2] … to check it on the page.",
    )

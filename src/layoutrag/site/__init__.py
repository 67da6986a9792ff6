"""The static site: a data dir's index exported as a folder that searches in the browser
(`layoutrag export-site`). The lexical path is ported to JavaScript in ``site/static``."""

from layoutrag.site.export import export_site

__all__ = ["export_site"]

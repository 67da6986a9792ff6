"""The import graph of layoutrag (top-level and lazy imports alike), its circles and its layering.

    python tools/import_graph.py            # prints circles and upward imports; exit 1 when any

Layers (lower never imports higher): a module may import its own layer or any lower one.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# package or module prefix -> layer; the longest matching prefix wins
LAYERS: dict[str, int] = {
    "layoutrag.errors": 0,
    "layoutrag.config": 1,
    "layoutrag.records": 1,
    "layoutrag.storage": 2,
    "layoutrag.geometry": 2,
    "layoutrag.vocab": 2,
    "layoutrag.specs": 2,
    "layoutrag.llm": 2,
    "layoutrag.pdf": 3,
    "layoutrag.ingest": 4,
    "layoutrag.samples": 4,
    "layoutrag.index.tokenizer": 4,
    "layoutrag.chunking": 5,
    "layoutrag.index": 6,
    "layoutrag.executors": 6,
    "layoutrag.parametric": 6,
    "layoutrag.build": 7,
    "layoutrag.service": 8,
    "layoutrag.evaluation": 9,
    "layoutrag.serve": 9,
    "layoutrag.site": 9,
    "layoutrag.cli": 10,
    "layoutrag": 10,  # the package's __init__ (the public API)
}


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """Every layoutrag module `path` imports, at any depth of the file (lazy imports included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                # `from pkg import submodule` imports the submodule; `from mod import name`, the module
                hit = sub if sub in modules else node.module
                if hit in modules:
                    out.add(hit)
    return out


def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in SRC.rglob("*.py")}
    mods = set(files)
    g = {m: imports_of(p, mods) - {m} for m, p in files.items()}
    return g


def layer(mod: str) -> int:
    best = max((p for p in LAYERS if mod == p or mod.startswith(p + ".")), key=len)
    return LAYERS[best]


def circles(g: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Pairs of modules that import each other (directly or through others): strongly connected."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comps: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return [(c[0], " <-> ".join(c)) for c in comps]


def upward(g: dict[str, set[str]]) -> list[str]:
    bad = []
    for m, deps in sorted(g.items()):
        for d in sorted(deps):
            if d == "layoutrag" or m.startswith(d + "."):
                continue  # a package's own __init__ (docs only) is not an upward arrow
            if layer(d) > layer(m):
                bad.append(f"{m} (layer {layer(m)}) imports {d} (layer {layer(d)})")
    return bad


def main() -> int:
    g = graph()
    cs, up = circles(g), upward(g)
    for _, c in cs:
        print(f"circle: {c}")
    for u in up:
        print(f"upward: {u}")
    print(f"{len(g)} modules, {sum(map(len, g.values()))} imports, {len(cs)} circles, {len(up)} upward imports")
    return 1 if cs or up else 0


if __name__ == "__main__":
    sys.exit(main())

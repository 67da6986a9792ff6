"""Vector drawings of a datasheet: package outline, land pattern, reflow profile, product view.

Each drawing is lines and text (no raster), with dimension labels as real text so the text layer
holds them. Each function returns the drawing's tight box and the labels it placed (text → box), so
queries can point at a dimension.
"""

from __future__ import annotations

from layoutrag.geometry import union_box
from layoutrag.samples.pagekit import GREY, Canvas
from layoutrag.samples.vocab import Package

BBox = tuple[float, float, float, float]  # the generator draws with plain tuples; records turn them into Box

__all__ = ["land_pattern", "package_outline", "product_view", "reflow_profile", "stability_curve"]

Labels = dict[str, BBox]
DIM = (0.15, 0.15, 0.15)


def _arrow(cv: Canvas, tip: tuple[float, float], direction: tuple[float, float]) -> None:
    dx, dy = direction
    s = 3.2
    # two short strokes at ±25° from the shaft make an open arrow head
    px, py = -dy, dx
    cv.line(tip, (tip[0] - dx * s + px * s * 0.45, tip[1] - dy * s + py * s * 0.45), width=0.5, color=DIM)
    cv.line(tip, (tip[0] - dx * s - px * s * 0.45, tip[1] - dy * s - py * s * 0.45), width=0.5, color=DIM)


def hdim(
    cv: Canvas, x0: float, x1: float, y: float, ref_y: float, label: str, labels: Labels, size: float = 6.5
) -> list[BBox]:
    """Horizontal dimension from x0 to x1 drawn at y, extension lines from ref_y."""
    boxes = [
        cv.line((x0, ref_y), (x0, y + (2 if y > ref_y else -2)), width=0.3, color=DIM),
        cv.line((x1, ref_y), (x1, y + (2 if y > ref_y else -2)), width=0.3, color=DIM),
        cv.line((x0, y), (x1, y), width=0.4, color=DIM),
    ]
    _arrow(cv, (x0, y), (-1, 0))
    _arrow(cv, (x1, y), (1, 0))
    w = cv.text_width(label, size)
    top = y - size * 1.25 if y < ref_y else y + 1.5
    b = cv.text((x0 + x1) / 2 - w / 2, top, label, size)
    labels[label] = b
    boxes.append(b)
    return boxes


def vdim(
    cv: Canvas, y0: float, y1: float, x: float, ref_x: float, label: str, labels: Labels, size: float = 6.5
) -> list[BBox]:
    """Vertical dimension from y0 to y1 drawn at x, extension lines from ref_x; label beside it."""
    boxes = [
        cv.line((ref_x, y0), (x + (2 if x > ref_x else -2), y0), width=0.3, color=DIM),
        cv.line((ref_x, y1), (x + (2 if x > ref_x else -2), y1), width=0.3, color=DIM),
        cv.line((x, y0), (x, y1), width=0.4, color=DIM),
    ]
    _arrow(cv, (x, y0), (0, -1))
    _arrow(cv, (x, y1), (0, 1))
    w = cv.text_width(label, size)
    lx = x + 2.5 if x > ref_x else x - 2.5 - w
    b = cv.text(lx, (y0 + y1) / 2 - size * 0.6, label, size)
    labels[label] = b
    boxes.append(b)
    return boxes


def package_outline(
    cv: Canvas, x: float, top: float, width: float, pkg: Package, n_pins: int, tol: str
) -> tuple[BBox, Labels]:
    """Top, side and bottom views with dimensions in mm."""
    labels: Labels = {}
    scale = min(width * 0.30 / pkg.length, 95 / pkg.width)
    L, W, H = pkg.length * scale, pkg.width * scale, max(pkg.height * scale, 5.0)
    boxes: list[BBox] = []
    # top view
    x0, y0 = x + 20, top + 22
    boxes.append(cv.rect((x0, y0, x0 + L, y0 + W), width=0.9, radius=0.04))
    boxes.append(cv.rect((x0 + 4, y0 + 4, x0 + L - 4, y0 + W - 4), width=0.4, color=GREY, radius=0.05))
    cv.page.draw_circle((x0 + 8, y0 + W - 8), 1.6, color=(0, 0, 0), fill=(0, 0, 0))
    boxes += hdim(cv, x0, x0 + L, top + 10, y0, f"{pkg.length:.1f}{tol}", labels)
    boxes += vdim(cv, y0, y0 + W, x0 - 10, x0, f"{pkg.width:.1f}{tol}", labels)
    boxes.append(cv.text(x0, y0 + W + 6, "Top view", 6.5, color=GREY))
    # side view
    sx = x0 + L + 40
    boxes.append(cv.rect((sx, y0 + W / 2 - H / 2, sx + L, y0 + W / 2 + H / 2), width=0.9))
    boxes += vdim(
        cv, y0 + W / 2 - H / 2, y0 + W / 2 + H / 2, sx + L + 10, sx + L, f"{pkg.height:.2f} max", labels
    )
    boxes.append(cv.text(sx, y0 + W + 6, "Side view", 6.5, color=GREY))
    # bottom view: pads
    by = y0 + W + 30
    boxes.append(cv.rect((x0, by, x0 + L, by + W), width=0.9))
    pw, pl = pkg.pad_w * scale, pkg.pad_l * scale
    cols = 3 if n_pins >= 6 else (2 if n_pins >= 2 else 1)
    rows_ = 2 if n_pins >= 4 else 1
    cx = [x0 + 3 + i * (L - 6 - pw) / max(cols - 1, 1) for i in range(cols)]
    cy = [by + 3 + j * (W - 6 - pl) / max(rows_ - 1, 1) for j in range(rows_)]
    n = 0
    for j, yy in enumerate(cy):
        for i, xx in enumerate(cx if j == 0 else list(reversed(cx))):
            n += 1
            cv.rect((xx, yy, xx + pw, yy + pl), width=0.5, fill=(0.82, 0.82, 0.82))
            cv.text(xx + pw / 2 - 2, yy + pl / 2 - 3.2, str(n if j == 0 else n), 6, color=(0.1, 0.1, 0.1))
            del i
    boxes += hdim(cv, cx[0], cx[0] + pw, by + W + 10, by + W, f"{pkg.pad_w:.2f}", labels)
    boxes += vdim(cv, cy[0], cy[0] + pl, x0 + L + 12, x0 + L, f"{pkg.pad_l:.2f}", labels)
    boxes.append(cv.text(x0, by + W + 22, "Bottom view", 6.5, color=GREY))
    return union_box(boxes), labels


def land_pattern(
    cv: Canvas, x: float, top: float, width: float, pkg: Package, n_pins: int
) -> tuple[BBox, Labels]:
    """Recommended solder pads (mm), package outline dashed."""
    labels: Labels = {}
    scale = min(width * 0.55 / (pkg.pitch_x + pkg.pad_w * 1.3), 90 / (pkg.pitch_y + pkg.pad_l * 1.3))
    pad_w, pad_l = pkg.pad_w * 1.15 * scale, pkg.pad_l * 1.2 * scale
    px, py = pkg.pitch_x * scale, pkg.pitch_y * scale
    x0, y0 = x + 28, top + 24
    boxes: list[BBox] = []
    cols = 3 if n_pins >= 6 else 2
    rows_ = 2 if n_pins >= 4 else 1
    xs = [x0 + i * px / (cols - 1) for i in range(cols)]
    ys = [y0 + j * py for j in range(rows_)]
    for yy in ys:
        for xx in xs:
            boxes.append(cv.rect((xx, yy, xx + pad_w, yy + pad_l), width=0.5, fill=(0.75, 0.75, 0.75)))
    outline = (x0 - 4, y0 - 4, xs[-1] + pad_w + 4, ys[-1] + pad_l + 4)
    cv.rect(outline, width=0.4, color=GREY)
    boxes += hdim(cv, xs[0], xs[0] + pad_w, y0 - 12, y0, f"{pkg.pad_w * 1.15:.2f}", labels)
    boxes += hdim(cv, xs[0], xs[-1], ys[-1] + pad_l + 14, ys[-1] + pad_l, f"{pkg.pitch_x:.2f}", labels)
    boxes += vdim(
        cv, ys[0], ys[0] + pad_l, xs[-1] + pad_w + 14, xs[-1] + pad_w, f"{pkg.pad_l * 1.2:.2f}", labels
    )
    if rows_ > 1:
        boxes += vdim(cv, ys[0], ys[1], x0 - 12, x0, f"{pkg.pitch_y:.2f}", labels)
    boxes.append(cv.text(x0, ys[-1] + pad_l + 26, "Unit: mm   Tolerance: ±0.05", 6.5, color=GREY))
    return union_box(boxes), labels


def reflow_profile(
    cv: Canvas, x: float, top: float, width: float, height: float, peak: int, liquidus: int, t_peak: int
) -> tuple[BBox, Labels]:
    """Temperature-time chart of the recommended reflow profile (IPC/JEDEC J-STD-020 style)."""
    labels: Labels = {}
    ax0, ay0, ax1, ay1 = x + 34, top + 8, x + width - 10, top + height - 26
    boxes: list[BBox] = [cv.rect((ax0, ay0, ax1, ay1), width=0.6)]

    def px(t: float) -> float:
        return ax0 + (ax1 - ax0) * t / 360.0

    def py(c: float) -> float:
        return ay1 - (ay1 - ay0) * (c - 0) / 300.0

    for t in range(0, 361, 60):
        cv.line((px(t), ay1), (px(t), ay1 + 2.5), width=0.4)
        boxes.append(cv.text(px(t) - 4, ay1 + 4, str(t), 6))
    for c in range(0, 301, 50):
        cv.line((ax0 - 2.5, py(c)), (ax0, py(c)), width=0.4)
        cv.line((ax0, py(c)), (ax1, py(c)), width=0.2, color=(0.8, 0.8, 0.8))
        boxes.append(cv.text(ax0 - 16, py(c) - 3.5, str(c), 6))
    boxes.append(cv.text((ax0 + ax1) / 2 - 15, ay1 + 13, "Time (s)", 6.5))
    boxes.append(cv.text(x, ay0 - 1, "°C", 6.5))
    pts = [
        (0, 25),
        (60, 150),
        (120, 200),
        (150, liquidus),
        (180, peak - 5),
        (180 + t_peak / 2, peak),
        (180 + t_peak, peak - 5),
        (230, liquidus),
        (280, 100),
        (330, 40),
    ]
    path = [(px(t), py(c)) for t, c in pts]
    cv.page.draw_polyline(path, color=(0.8, 0.1, 0.1), width=1.2)
    cv.line((ax0, py(peak)), (ax1, py(peak)), width=0.4, color=GREY, dashes="[2 2] 0")
    cv.line((ax0, py(liquidus)), (ax1, py(liquidus)), width=0.4, color=GREY, dashes="[2 2] 0")
    for text, tx, c in (
        (f"Peak {peak} °C", px(240), peak),
        (f"TL {liquidus} °C", px(250), liquidus),
        ("Preheat 150–200 °C", px(64), 120),
    ):
        b = cv.text(tx, py(c) - 9, text, 6.5)
        labels[text] = b
        boxes.append(b)
    b = cv.text(px(175), py(peak) + 3, f"tp ≤ {t_peak} s", 6.5)
    labels[f"tp ≤ {t_peak} s"] = b
    boxes.append(b)
    return union_box(boxes), labels


def stability_curve(
    cv: Canvas, x: float, top: float, width: float, height: float, stab: float, t_lo: int, t_hi: int
) -> tuple[BBox, Labels]:
    """Frequency deviation vs temperature (a cubic for AT-cut, a parabola for tuning forks)."""
    labels: Labels = {}
    ax0, ay0, ax1, ay1 = x + 30, top + 6, x + width - 8, top + height - 24
    boxes: list[BBox] = [cv.rect((ax0, ay0, ax1, ay1), width=0.6)]
    span = stab * 1.5

    def px(t: float) -> float:
        return ax0 + (ax1 - ax0) * (t - t_lo) / (t_hi - t_lo)

    def py(v: float) -> float:
        return (ay0 + ay1) / 2 - (ay1 - ay0) / 2 * v / span

    for t in range(t_lo, t_hi + 1, 20 if t_hi - t_lo <= 120 else 40):
        boxes.append(cv.text(px(t) - 5, ay1 + 3, str(t), 6))
    for v in (-stab, 0, stab):
        cv.line((ax0, py(v)), (ax1, py(v)), width=0.2, color=(0.75, 0.75, 0.75), dashes="[1 1] 0")
        b = cv.text(ax0 - 24, py(v) - 3.5, f"{v:+g}", 6)
        boxes.append(b)
    pts = []
    for i in range(61):
        temp = t_lo + (t_hi - t_lo) * i / 60
        u = (temp - 25) / max(t_hi - 25, 25 - t_lo)
        pts.append((px(temp), py(stab * 0.9 * (1.6 * u**3 - 0.6 * u))))
    cv.page.draw_polyline(pts, color=(0.1, 0.3, 0.7), width=1.0)
    b = cv.text((ax0 + ax1) / 2 - 22, ay1 + 12, "Temperature (°C)", 6.5)
    boxes.append(b)
    b = cv.text(ax0 + 4, ay0 + 3, f"∆f/f (ppm), limit ±{stab:g} ppm", 6.5)
    labels[f"±{stab:g} ppm"] = b
    boxes.append(b)
    return union_box(boxes), labels


def product_view(cv: Canvas, x: float, top: float, pkg: Package, brand: str) -> BBox:
    """A small isometric-ish view of the package, the picture every datasheet has on page 1."""
    w = 74 * pkg.length / (pkg.length + pkg.width) + 40
    h = 46
    cv.rect((x, top + 8, x + w, top + h), width=0.8, fill=(0.78, 0.78, 0.80))
    cv.page.draw_polyline(
        [(x, top + 8), (x + 10, top), (x + w + 10, top), (x + w, top + 8)],
        color=(0.2, 0.2, 0.2),
        fill=(0.88, 0.88, 0.9),
        width=0.8,
        closePath=True,
    )
    cv.page.draw_polyline(
        [(x + w, top + 8), (x + w + 10, top), (x + w + 10, top + h - 8), (x + w, top + h)],
        color=(0.2, 0.2, 0.2),
        fill=(0.6, 0.6, 0.62),
        width=0.8,
        closePath=True,
    )
    cv.rect(
        (x + 6, top + 14, x + w - 6, top + h - 6),
        width=0.5,
        color=(0.3, 0.3, 0.3),
        fill=(0.92, 0.92, 0.93),
        radius=0.1,
    )
    b = cv.text(x + 10, top + 20, brand, 6.5, bold=True, color=(0.25, 0.25, 0.25))
    return union_box([(x, top, x + w + 10, top + h), b])

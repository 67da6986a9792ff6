"""What one generated datasheet says (`DocSpec`), shared by the generator and the query maker."""

from __future__ import annotations

from dataclasses import dataclass, field

from layoutrag.samples.vocab import Package, ProductType, SpecRow, Vendor

__all__ = ["DocSpec", "OrderRow"]


@dataclass
class OrderRow:
    code: str
    freq: str
    stability: str
    load: str
    temp: str
    packing: str

    def cells(self) -> list[str]:
        return [self.code, self.freq, self.stability, self.load, self.temp, self.packing]


@dataclass
class DocSpec:
    """Everything one generated datasheet says."""

    index: int
    file_name: str
    vendor: Vendor
    ptype: ProductType
    series: str
    pkg: Package
    freq: float
    spec: list[SpecRow]
    key: dict[str, str]
    orders: list[OrderRow]
    features: list[str]
    applications: list[str]
    reflow: tuple[int, int, int]  # peak °C, liquidus °C, time at peak s
    revision: str
    scanned_page: bool
    i2c_address: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.ptype.key

    @property
    def n_pages(self) -> int:
        return 6 if self.scanned_page else 5

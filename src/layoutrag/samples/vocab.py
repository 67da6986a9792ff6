"""What the sample datasheets say: vendors, product types, parameter tables, part-number schemes.

Everything here is data plus small pure functions of a seeded `random.Random`, so a seed fixes the
whole corpus. Vendors are fictional; their part-number styles imitate the real families a datasheet
search meets (`7M-26.000MAAJ-T`, `ABM8-26.000MHZ-B2-T`, `SiT5358AI-FQ033IT-19.200000`,
`ECS-260-10-33Q-TR`, compact codes without separators like `X322526MLB4SI`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = [
    "PACKAGES",
    "PARAM_ZH",
    "PRODUCT_TYPES",
    "VENDORS",
    "Package",
    "ProductType",
    "SpecRow",
    "Vendor",
    "make_part_number",
]


@dataclass(frozen=True)
class Vendor:
    key: str
    name: str
    url: str
    color: tuple[float, float, float]
    style: str  # part-number style, see make_part_number
    series_prefixes: tuple[str, ...]
    bilingual: bool = False  # section headers also in Chinese (as many Chinese vendors print them)
    letter: bool = False  # US Letter instead of A4


VENDORS: tuple[Vendor, ...] = (
    Vendor(
        "meridian",
        "Meridian Quartz Co., Ltd.",
        "www.meridian-quartz.com",
        (0.05, 0.30, 0.60),
        "txc",
        ("7M", "8Y", "7V", "8Q", "7X", "8Z", "7B", "AX"),
    ),
    Vendor(
        "northbay",
        "Northbay Frequency Control",
        "www.northbayfc.com",
        (0.70, 0.10, 0.10),
        "abr",
        ("ABM", "ASTX", "ASDM", "ABLN", "ASVK", "AB26"),
    ),
    Vendor(
        "sotera",
        "Sotera Timing Inc.",
        "www.soteratiming.com",
        (0.10, 0.45, 0.30),
        "sit",
        ("SiT53", "SiT16", "SiT80", "SiT36", "SiT92"),
    ),
    Vendor(
        "eastcoast",
        "Eastcoast Crystal Systems",
        "www.eccrystal.com",
        (0.25, 0.25, 0.30),
        "ecs",
        ("ECS-", "ECX-", "ECSV-"),
        letter=True,
    ),
    Vendor(
        "huaxin",
        "Huaxin Shengda Electronics 华信晟达电子",
        "www.hxsd-crystal.cn",
        (0.80, 0.40, 0.05),
        "yx",
        ("X", "HX", "SX"),
        bilingual=True,
    ),
    Vendor(
        "kaito",
        "Kaito Crystal Devices Corp.",
        "www.kaito-xtal.co.jp",
        (0.35, 0.15, 0.55),
        "epson",
        ("FA-", "FC-", "TG-", "RX-", "SG-"),
    ),
)


@dataclass(frozen=True)
class Package:
    code: str  # "3225"
    length: float  # mm
    width: float
    height: float
    pad_w: float
    pad_l: float
    pitch_x: float
    pitch_y: float


PACKAGES: tuple[Package, ...] = (
    Package("1612", 1.6, 1.2, 0.35, 0.55, 0.45, 1.10, 0.75),
    Package("2016", 2.0, 1.6, 0.45, 0.65, 0.60, 1.40, 0.95),
    Package("2520", 2.5, 2.0, 0.55, 0.80, 0.70, 1.70, 1.20),
    Package("3225", 3.2, 2.5, 0.70, 1.00, 0.90, 2.20, 1.60),
    Package("5032", 5.0, 3.2, 0.90, 1.40, 1.15, 3.70, 2.00),
    Package("7050", 7.0, 5.0, 1.30, 1.80, 1.40, 5.08, 3.00),
)


@dataclass(frozen=True)
class SpecRow:
    parameter: str
    symbol: str
    min: str
    typ: str
    max: str
    unit: str
    condition: str = ""

    def cells(self) -> list[str]:
        return [self.parameter, self.symbol, self.min, self.typ, self.max, self.unit, self.condition]


@dataclass
class ProductType:
    key: str
    title: str  # "SMD Crystal Unit"
    title_zh: str
    pins: list[tuple[str, str, str]] = field(default_factory=list)  # (pin, symbol, function)


PRODUCT_TYPES: dict[str, ProductType] = {
    "crystal": ProductType(
        "crystal",
        "SMD Crystal Unit",
        "贴片晶体谐振器",
        [
            ("1", "XTAL", "Crystal terminal"),
            ("2", "GND", "Ground / case"),
            ("3", "XTAL", "Crystal terminal"),
            ("4", "GND", "Ground / case"),
        ],
    ),
    "tuning_fork": ProductType(
        "tuning_fork",
        "32.768 kHz Tuning Fork Crystal",
        "32.768kHz 音叉晶体",
        [("1", "XTAL", "Crystal terminal"), ("2", "XTAL", "Crystal terminal")],
    ),
    "xo": ProductType(
        "xo",
        "CMOS Clock Oscillator (XO)",
        "有源晶体振荡器",
        [
            ("1", "OE", "Output enable (high or open: output active)"),
            ("2", "GND", "Ground"),
            ("3", "OUT", "Clock output"),
            ("4", "VDD", "Supply voltage"),
        ],
    ),
    "tcxo": ProductType(
        "tcxo",
        "Temperature Compensated Crystal Oscillator (TCXO)",
        "温补晶体振荡器",
        [
            ("1", "VC/NC", "Frequency control input or no connection"),
            ("2", "GND", "Ground"),
            ("3", "OUT", "Clipped sine wave output"),
            ("4", "VCC", "Supply voltage"),
        ],
    ),
    "vcxo": ProductType(
        "vcxo",
        "Voltage Controlled Crystal Oscillator (VCXO)",
        "压控晶体振荡器",
        [
            ("1", "VC", "Control voltage input"),
            ("2", "NC", "No connection"),
            ("3", "GND", "Ground"),
            ("4", "OUT", "Output"),
            ("5", "OUT#", "Complementary output"),
            ("6", "VDD", "Supply voltage"),
        ],
    ),
    "rtc": ProductType(
        "rtc",
        "Real-Time Clock Module with I2C Interface",
        "实时时钟模块",
        [
            ("1", "CLKOUT", "32.768 kHz clock output (push-pull)"),
            ("2", "VDD", "Supply voltage"),
            ("3", "VBACKUP", "Backup supply input"),
            ("4", "VSS", "Ground"),
            ("5", "SDA", "I2C serial data (open drain)"),
            ("6", "SCL", "I2C serial clock input"),
            ("7", "INT", "Interrupt output (open drain, active low)"),
            ("8", "EVI", "Event input for time stamp"),
        ],
    ),
}

# Chinese names of parameters (how a Chinese engineer asks for them).
PARAM_ZH: dict[str, str] = {
    "Nominal frequency": "标称频率",
    "Frequency range": "频率范围",
    "Frequency tolerance": "调整频差",
    "Frequency stability": "频率稳定度",
    "Operating temperature range": "工作温度范围",
    "Storage temperature range": "储存温度范围",
    "Load capacitance": "负载电容",
    "Shunt capacitance": "静电容",
    "Equivalent series resistance": "等效串联电阻",
    "Drive level": "激励功率",
    "Aging": "老化率",
    "Insulation resistance": "绝缘电阻",
    "Turnover temperature": "拐点温度",
    "Parabolic coefficient": "二次温度系数",
    "Supply voltage": "电源电压",
    "Current consumption": "工作电流",
    "Standby current": "待机电流",
    "Output load": "输出负载",
    "Rise / fall time": "上升下降时间",
    "Duty cycle": "占空比",
    "Start-up time": "启动时间",
    "Phase jitter (RMS)": "相位抖动",
    "Phase noise at 1 kHz offset": "相位噪声",
    "Output level": "输出电平",
    "Stability vs. supply voltage": "电压稳定度",
    "Pull range": "牵引范围",
    "Control voltage": "控制电压",
    "Linearity": "线性度",
    "Timekeeping current": "计时电流",
    "Timekeeping voltage": "计时电压",
    "Clock accuracy": "时钟精度",
    "I2C bus clock frequency": "I2C总线时钟频率",
}


def _pm(v: float | int) -> str:
    return f"±{v:g}"


def spec_rows(
    kind: str, rng: random.Random, *, freq: float, pkg: Package
) -> tuple[list[SpecRow], dict[str, str]]:
    """The electrical specification of one product (rows, and the chosen key values)."""
    temp = rng.choice([("-20", "+70"), ("-40", "+85"), ("-40", "+105"), ("-40", "+125")])
    key: dict[str, str] = {"temp": f"{temp[0]} to {temp[1]} °C"}
    rows: list[SpecRow] = []
    if kind == "crystal":
        cl_pf = rng.choice([6, 8, 9, 10, 12, 16, 18, 20])
        tol = rng.choice([10, 15, 20, 30])
        stab_ppm = rng.choice([10, 15, 20, 30, 50])
        lo = rng.choice([8, 10, 12, 16])
        hi = rng.choice([48, 50, 54, 60, 80])
        esr_base = rng.choice([40, 50, 60, 80])
        key.update(
            cl=f"{cl_pf} pF", tol=_pm(tol) + " ppm", stab=_pm(stab_ppm) + " ppm", range=f"{lo}–{hi} MHz"
        )
        rows += [
            SpecRow("Frequency range", "f0", f"{lo}.000", "", f"{hi}.000", "MHz", "Fundamental"),
            SpecRow("Frequency tolerance", "∆f/f", "", _pm(tol), "", "ppm", "at 25 °C ± 3 °C"),
            SpecRow(
                "Frequency stability",
                "∆f/fT",
                "",
                _pm(stab_ppm),
                "",
                "ppm",
                "over operating temp., ref. 25 °C",
            ),
            SpecRow("Operating temperature range", "TOPR", temp[0], "", temp[1], "°C", ""),
            SpecRow("Storage temperature range", "TSTG", "-55", "", "+125", "°C", "bare product"),
            SpecRow("Load capacitance", "CL", "", str(cl_pf), "", "pF", "specify when ordering (1)"),
            SpecRow("Shunt capacitance", "C0", "", "", rng.choice(["2.0", "3.0", "5.0"]), "pF", ""),
        ]
        bands = [(lo, 16, 3), (16, 24, 2), (24, 40, 1), (40, hi, 1)]
        for a, b, mult in bands:
            if a >= b:
                continue
            rows.append(
                SpecRow(
                    "Equivalent series resistance",
                    "ESR",
                    "",
                    "",
                    str(esr_base * mult),
                    "Ω",
                    f"{a} MHz ≤ f0 < {b} MHz",
                )
            )
        dl = rng.choice([100, 200, 300])
        rows += [
            SpecRow("Drive level", "DL", "", "10", str(dl), "µW", ""),
            SpecRow("Aging", "fa", "", "", _pm(rng.choice([1, 2, 3, 5])), "ppm", "first year, at 25 °C"),
            SpecRow("Insulation resistance", "IR", "500", "", "", "MΩ", "100 V DC"),
        ]
    elif kind == "tuning_fork":
        cl = rng.choice(["6.0", "7.0", "9.0", "12.5"])
        tol = rng.choice([10, 20, 30])
        esr = rng.choice([50, 60, 70, 80, 90])
        key.update(cl=f"{cl} pF", tol=_pm(tol) + " ppm", esr=f"{esr} kΩ")
        rows += [
            SpecRow("Nominal frequency", "f0", "", "32.768", "", "kHz", ""),
            SpecRow("Frequency tolerance", "∆f/f", "", _pm(tol), "", "ppm", "at 25 °C"),
            SpecRow("Turnover temperature", "Ti", "20", "25", "30", "°C", ""),
            SpecRow("Parabolic coefficient", "B", "", "-0.034", "", "ppm/°C²", ""),
            SpecRow("Operating temperature range", "TOPR", temp[0], "", temp[1], "°C", ""),
            SpecRow("Storage temperature range", "TSTG", "-55", "", "+125", "°C", ""),
            SpecRow("Load capacitance", "CL", "", cl, "", "pF", "specify when ordering (1)"),
            SpecRow("Equivalent series resistance", "ESR", "", str(esr - 20), str(esr), "kΩ", ""),
            SpecRow("Shunt capacitance", "C0", "", "1.3", "", "pF", ""),
            SpecRow("Drive level", "DL", "", "0.1", rng.choice(["0.5", "1.0"]), "µW", ""),
            SpecRow("Aging", "fa", "", "", "±3", "ppm", "first year, at 25 °C"),
            SpecRow("Insulation resistance", "IR", "500", "", "", "MΩ", "100 V DC"),
        ]
    elif kind in ("xo", "tcxo", "vcxo"):
        vdd = rng.choice(["1.8", "2.5", "3.3"])
        rows.append(
            SpecRow(
                "Frequency range",
                "f0",
                rng.choice(["1.000", "10.000", "13.000"]),
                "",
                rng.choice(["52.000", "80.000", "125.000", "156.250"]),
                "MHz",
                "",
            )
        )
        rows.append(
            SpecRow(
                "Supply voltage",
                "VDD",
                f"{float(vdd) * 0.9:.2f}",
                vdd,
                f"{float(vdd) * 1.1:.2f}",
                "V",
                "±10 %",
            )
        )
        if kind == "tcxo":
            stab = rng.choice(["0.5", "1.0", "1.5", "2.0", "2.5"])
            key.update(stab=f"±{stab} ppm")
            rows += [
                SpecRow("Frequency tolerance", "∆f/f", "", "±1.5", "", "ppm", "at 25 °C, after 2 reflows"),
                SpecRow("Frequency stability", "∆f/fT", "", "", f"±{stab}", "ppm", "over operating temp."),
                SpecRow("Stability vs. supply voltage", "∆f/fV", "", "", "±0.1", "ppm", "VDD ± 5 %"),
                SpecRow(
                    "Current consumption",
                    "IDD",
                    "",
                    "1.2",
                    rng.choice(["1.5", "2.0", "2.5"]),
                    "mA",
                    "no load",
                ),
                SpecRow("Output level", "VPP", "0.8", "", "", "V", "clipped sine, 10 kΩ // 10 pF"),
                SpecRow(
                    "Phase noise at 1 kHz offset",
                    "L(f)",
                    "",
                    rng.choice(["-135", "-138", "-140"]),
                    "",
                    "dBc/Hz",
                    f"f0 = {freq:.3f} MHz",
                ),
                SpecRow("Start-up time", "tSU", "", "", "2", "ms", ""),
                SpecRow("Aging", "fa", "", "", "±1.0", "ppm", "first year"),
            ]
        else:
            stab = rng.choice(["20", "25", "50", "100"])
            key.update(stab=f"±{stab} ppm")
            rows += [
                SpecRow(
                    "Frequency stability",
                    "∆f/f",
                    "",
                    "",
                    f"±{stab}",
                    "ppm",
                    "incl. tolerance, temperature, supply, load, aging (2)",
                ),
                SpecRow(
                    "Current consumption",
                    "IDD",
                    "",
                    rng.choice(["3.5", "4.5", "6.0"]),
                    rng.choice(["7.0", "8.0", "12"]),
                    "mA",
                    f"f0 = {freq:.3f} MHz, no load",
                ),
                SpecRow("Standby current", "ISTB", "", "", rng.choice(["1", "5", "10"]), "µA", "OE = low"),
                SpecRow("Output load", "CL", "", "", "15", "pF", "CMOS"),
                SpecRow(
                    "Rise / fall time", "tr/tf", "", "", rng.choice(["3", "4", "5"]), "ns", "20 % to 80 % VDD"
                ),
                SpecRow("Duty cycle", "SYM", "45", "50", "55", "%", "at 50 % VDD"),
                SpecRow("Start-up time", "tSU", "", "", rng.choice(["3", "5", "10"]), "ms", ""),
                SpecRow(
                    "Phase jitter (RMS)",
                    "tJ",
                    "",
                    rng.choice(["0.3", "0.5", "0.8"]),
                    "1.0",
                    "ps",
                    "12 kHz to 20 MHz",
                ),
            ]
            if kind == "vcxo":
                pull = rng.choice(["50", "80", "100", "150"])
                key.update(pull=f"±{pull} ppm")
                rows += [
                    SpecRow("Pull range", "APR", f"±{pull}", "", "", "ppm", "VC = 0.15 V to 3.15 V"),
                    SpecRow("Control voltage", "VC", "0.15", "1.65", "3.15", "V", ""),
                    SpecRow("Linearity", "LIN", "", "", "10", "%", ""),
                ]
        rows.append(SpecRow("Operating temperature range", "TOPR", temp[0], "", temp[1], "°C", ""))
        rows.append(SpecRow("Storage temperature range", "TSTG", "-55", "", "+125", "°C", ""))
        key["vdd"] = f"{vdd} V"
    elif kind == "rtc":
        ik = rng.choice(["45", "60", "95", "160", "250"])
        acc = rng.choice(["±3", "±5", "±20"])
        key.update(ik=f"{ik} nA", acc=f"{acc} ppm")
        rows += [
            SpecRow("Supply voltage", "VDD", "1.6", "3.0", "5.5", "V", "I2C bus active"),
            SpecRow("Timekeeping voltage", "VCLK", rng.choice(["1.1", "1.3"]), "", "5.5", "V", ""),
            SpecRow("Timekeeping current", "IVDD", "", ik, str(int(ik) * 2), "nA", "VDD = 3.0 V, 25 °C (1)"),
            SpecRow("Clock accuracy", "∆f/f", "", "", acc, "ppm", f"{temp[0]} to {temp[1]} °C, TC on"),
            SpecRow("Nominal frequency", "f0", "", "32.768", "", "kHz", "internal crystal"),
            SpecRow("Aging", "fa", "", "", "±3", "ppm", "first year, at 25 °C"),
            SpecRow("I2C bus clock frequency", "fSCL", "", "", "400", "kHz", "Fast mode"),
            SpecRow("Operating temperature range", "TOPR", temp[0], "", temp[1], "°C", ""),
            SpecRow("Storage temperature range", "TSTG", "-55", "", "+125", "°C", ""),
            SpecRow("Current consumption", "IDD", "", "", "45", "µA", "I2C at 400 kHz"),
        ]
    else:  # pragma: no cover - guarded by PRODUCT_TYPES
        raise ValueError(f"unknown product type {kind!r}; valid: {sorted(PRODUCT_TYPES)}")
    return rows, key


def make_part_number(style: str, series: str, freq: float, rng: random.Random, kind: str) -> str:
    """One orderable code in a vendor's style."""
    if kind in ("tuning_fork", "rtc"):
        freq = 32.768 if kind == "tuning_fork" else freq
    letters = "ABCDEFGHJKLMN"
    if style == "txc":
        unit = "K" if kind == "tuning_fork" else "M"
        return f"{series}-{freq:.3f}{unit}{''.join(rng.choice(letters) for _ in range(3))}-T"
    if style == "abr":
        unit = "KHZ" if kind == "tuning_fork" else "MHZ"
        return f"{series}-{freq:.3f}{unit}-{rng.choice('BCDEK')}{rng.choice('1234')}-T"
    if style == "sit":
        volt = rng.choice(["18", "25", "33"])
        return f"{series}AI-{rng.choice(['FQ', 'GS', 'EB', 'HN'])}0{volt}IT-{freq:.6f}"
    if style == "ecs":
        return f"{series}-{int(round(freq * 10))}-{rng.choice(['8', '10', '12', '18', '20'])}-{rng.choice(['33', '47', '25'])}Q-TR"
    if style == "yx":
        f = f"{freq:g}".replace(".", "")
        return f"{series}{f}M{rng.choice('LKJ')}{rng.choice('BDF')}{rng.choice('2345')}SI"
    if style == "epson":
        return (
            f"{series.replace('-', '')}-{freq:.4f}M-{rng.choice(['9', '10', '12', '18'])}{rng.choice('WXYZ')}"
        )
    raise ValueError(f"unknown part-number style {style!r}")


def make_series(vendor: Vendor, rng: random.Random, pkg: Package, used: set[str]) -> str:
    """A series name in the vendor's style, unique within the corpus."""
    for _ in range(200):
        p = rng.choice(vendor.series_prefixes)
        if vendor.style == "txc":
            s = p if len(p) == 2 and p not in used else f"{p[0]}{rng.choice('ABCDEFGHJKLMNPQRSTUVWXYZ')}"
        elif vendor.style == "abr":
            s = f"{p}{rng.randint(2, 19)}"
        elif vendor.style == "sit":
            s = f"{p}{rng.randint(10, 99)}"
        elif vendor.style == "ecs":
            s = f"{p}{pkg.code}{rng.choice(['MV', 'BN', 'S', 'X', 'Q'])}"
        elif vendor.style == "yx":
            s = f"{p}{pkg.code}"
            s = s + rng.choice("ABCDEFGH") if s in used else s
        else:
            s = f"{p}{rng.randint(100, 999)}"
        if s not in used:
            used.add(s)
            return s
    raise RuntimeError("series names exhausted")  # pragma: no cover


FEATURES: dict[str, list[str]] = {
    "crystal": [
        "Ultra-miniature ceramic SMD package",
        "Seam-sealed for high reliability",
        "Fundamental mode, low ESR",
        "Excellent shock and vibration resistance",
        "Reflow compatible, Pb-free and RoHS compliant",
        "AEC-Q200 qualified versions available",
        "Tight tolerance and stability options",
        "Tape and reel packing",
    ],
    "tuning_fork": [
        "32.768 kHz tuning fork in a low-profile SMD package",
        "Low equivalent series resistance",
        "Low drive level for battery-powered designs",
        "Reflow compatible, Pb-free and RoHS compliant",
        "Ideal for real-time clock circuits",
        "Embossed tape packing",
    ],
    "xo": [
        "CMOS output with output enable",
        "Low current consumption",
        "Low RMS phase jitter",
        "Wide frequency range",
        "Supply voltage 1.8 V to 3.3 V",
        "Pb-free and RoHS compliant",
        "Fast start-up",
    ],
    "tcxo": [
        "Excellent frequency stability over temperature",
        "Clipped sine wave output",
        "Low phase noise for GNSS and cellular RF",
        "Low power consumption",
        "Stable against supply and load variation",
        "Ceramic SMD package, reflow compatible",
    ],
    "vcxo": [
        "Differential LVDS output",
        "Wide absolute pull range",
        "Low jitter for SONET and 10GbE",
        "Excellent linearity",
        "6-pad ceramic package",
        "Pb-free and RoHS compliant",
    ],
    "rtc": [
        "Temperature compensated real-time clock",
        "Ultra-low timekeeping current",
        "I2C bus interface up to 400 kHz",
        "Built-in 32.768 kHz crystal, no tuning needed",
        "Automatic backup switchover",
        "Alarm, timer and time-stamp functions",
        "Programmable clock output",
    ],
}

APPLICATIONS: dict[str, list[str]] = {
    "crystal": [
        "Bluetooth, Wi-Fi and Zigbee modules",
        "Smartphones and wearables",
        "USB and Ethernet interfaces",
        "Microcontroller reference clock",
        "Automotive infotainment",
        "Industrial IoT nodes",
    ],
    "tuning_fork": [
        "Real-time clock for MCU",
        "Smart meters",
        "Wearable devices",
        "Remote controls",
        "Medical monitors",
    ],
    "xo": [
        "Networking equipment",
        "Storage and servers",
        "Set-top boxes",
        "Industrial controllers",
        "FPGA and SoC reference clock",
    ],
    "tcxo": [
        "GNSS receivers",
        "Small cell base stations",
        "LTE and 5G modules",
        "Satellite communication",
        "Precision instruments",
    ],
    "vcxo": [
        "SONET / SDH line cards",
        "10G Ethernet",
        "Video broadcast equipment",
        "Jitter attenuation PLLs",
    ],
    "rtc": [
        "Smart electricity and water meters",
        "Data loggers",
        "Point-of-sale terminals",
        "Automotive telematics",
        "Industrial timers",
    ],
}

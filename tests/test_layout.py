"""The house rules of the code's shape (issues 11 and 28), checked on every run.

- no module over 600 lines and no function over 80 in ``referee/`` or ``adapters/``;
- core code never imports an engine package, adapters never import ``referee/config/``;
- every module of ``referee/`` sits in a layer folder (none loose beside ``__init__``), and
  imports go down the folders only (core ← adapters ← config/store ← rules ← game ← host ←
  render ← cli) and never in a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("referee", "adapters")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80

LAYERS: tuple[tuple[str, ...], ...] = (
    # 0: value types, errors, the forum interface, text tools, vocabulary
    ("referee/core",),
    # 1: forum engines and what they share
    ("adapters",),
    # 2: what the game is set up with, where it is kept, reading the forum into it
    ("referee/config", "referee/store"),
    # 3: the rules, pure
    ("referee/rules",),
    # 4: the game as the commands see it
    ("referee/game",),
    # 5: what the host runs: publishing, watching, replay, status, history, export
    ("referee/host",),
    # 6: every text the tool prints or posts
    ("referee/render",),
    # 7: the command line
    ("referee/cli",),
)
"""The layer folders, lowest first: a module's layer is the folder it sits in."""

PACKAGE_FILES = ("__init__.py", "__main__.py")
"""The only modules that may sit directly in ``referee/``."""


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _layer(module: str) -> int | None:
    path = MODULES[module].relative_to(ROOT)
    if path.parent == Path("referee") and path.name in PACKAGE_FILES:
        return 0
    for rank, folders in enumerate(LAYERS):
        if any(path.is_relative_to(folder) for folder in folders):
            return rank
    return None


def _imports(module: str, path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    is_pkg = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                keep = len(parts) - node.level + (1 if is_pkg else 0)
                base = ".".join(parts[:keep] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return {name for name in out if name.split(".")[0] in PACKAGES and name in MODULES}


IMPORTS = {m: _imports(m, p) for m, p in MODULES.items()}


def test_no_module_over_600_lines() -> None:
    long = {m: n for m, p in MODULES.items()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_function_over_80_lines() -> None:
    long: list[str] = []
    for m, p in MODULES.items():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > MAX_FUNCTION_LINES:
                    long.append(f"{m}.{node.name} ({size} lines)")
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_core_never_imports_an_engine() -> None:
    shared = {"adapters", "adapters.base", "adapters.registry"}
    bad = {m: sorted(i for i in imps if i.startswith("adapters") and i not in shared)
           for m, imps in IMPORTS.items() if m.startswith("referee")}
    assert not {m: v for m, v in bad.items() if v}


def test_adapters_never_import_the_config() -> None:
    bad = [m for m, imps in IMPORTS.items()
           if m.startswith("adapters")
           and any(MODULES[i].relative_to(ROOT).is_relative_to("referee/config") for i in imps)]
    assert not bad


def test_every_module_has_a_layer() -> None:
    assert not [m for m in MODULES if _layer(m) is None]


def test_no_module_sits_loose_in_referee() -> None:
    loose = sorted(p.name for p in (ROOT / "referee").glob("*.py") if p.name not in PACKAGE_FILES)
    assert not loose, f"modules outside the layer folders: {loose}"


def test_every_layer_folder_is_a_package() -> None:
    folders = [f for rank in LAYERS for f in rank]
    assert not [f for f in folders if not (ROOT / f / "__init__.py").is_file()]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module: str) -> None:
    rank = _layer(module)
    up = sorted(i for i in IMPORTS[module]
                if (r := _layer(i)) is not None and rank is not None and r > rank)
    assert not up, f"{module} (layer {rank}) imports from higher layers: {up}"


def test_no_import_circle() -> None:
    # Packages import their own modules (re-exports); a circle is between modules only.
    graph = {m: {i for i in imps if i != m and not m.startswith(i + ".")
                 and not (MODULES[m].name == "__init__.py" and i.startswith(m + "."))}
             for m, imps in IMPORTS.items()}
    state: dict[str, int] = {}
    circles: list[list[str]] = []

    def visit(m: str, trail: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                circles.append(trail[trail.index(n):] + [n] if n in trail else [m, n])
            elif n not in state:
                visit(n, trail + [n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not circles, f"import circles: {circles[:5]}"

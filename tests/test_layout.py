"""The house rules of the code's shape (issue 11), checked on every run.

- no module over 600 lines and no function over 80 in ``referee/`` or ``adapters/``;
- core code never imports an engine package, adapters never import ``referee.config``;
- imports go down the layers only (core ← adapters ← config/store ← rules ← game/host ←
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
    # 0: the kernel: value types, errors, the forum interface, text tools, vocabulary
    ("referee.core",),
    # 1: forum engines and what they share
    ("adapters",),
    # 2: what the game is set up with, where it is kept, reading the forum into it
    ("referee.config", "referee.store"),
    # 3: the rules, pure
    ("referee.rules",),
    # 4: the game as the commands see it, and what the host runs
    ("referee.game", "referee.host"),
    # 5: every text the tool prints or posts
    ("referee.render",),
    # 6: the command line
    ("referee.cli",),
)


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
    if module in PACKAGES:
        return 0
    for rank, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
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
           and any(i == "referee.config" or i.startswith("referee.config.") for i in imps)]
    assert not bad


def test_every_module_has_a_layer() -> None:
    assert not [m for m in MODULES if _layer(m) is None]


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

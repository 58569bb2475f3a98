"""The house's layers, read from the package's own imports: nothing imports what stands above it, no import
cycle between modules, ``core/`` imports no game, ``server/store/`` imports nothing of the server that calls it,
and no module outside ``games/`` names a game."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

import ludotheque
from ludotheque.games import REGISTRY

PACKAGE = Path(ludotheque.__file__).parent

#: Each unit's floor; a unit may import its own floor and those below.  A game's ``bench`` part stands with the
#: benchmarks it feeds (it reads their timers), not with the rules.
LAYERS: dict[str, int] = {
    "core": 0,
    "games": 1,
    "table": 2,
    "testing": 2,
    "bots": 3,
    "arena": 4,
    "interop": 4,
    "native": 4,
    "bench": 5,
    "games.bench": 5,
    "web": 5,
    "server": 6,
    "cli": 7,
    "ludotheque": 8,
}

#: Module cycles allowed: none.  A cycle fails the test; an entry that no longer is a cycle must be removed.
KNOWN_CYCLES: set[frozenset[str]] = set()


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "ludotheque"
    if parts[1] == "games" and len(parts) >= 4 and parts[3] == "bench":
        return "games.bench"
    return parts[1]


def modules() -> dict[str, ast.Module]:
    return {module_name(path): ast.parse(path.read_text(), str(path)) for path in sorted(PACKAGE.rglob("*.py"))}


def outside_type_checking(tree: ast.Module) -> Iterator[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:`` (annotations only; they never run)."""
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            pending.extend(node.orelse)
            continue
        yield node
        pending.extend(ast.iter_child_nodes(node))


def imports(module: str, tree: ast.Module, *, running: bool = False) -> Iterator[tuple[str, int]]:
    """Every ``ludotheque`` module ``module`` imports, with the line (``from x import y`` counts ``x.y`` when
    ``x.y`` is a module); ``running``: only those that run (not the type checker's)."""
    for node in outside_type_checking(tree) if running else ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("ludotheque"):
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[: -node.level] if not module.endswith("__init__") else module.split(".")
                base = ".".join([*package, base] if base else package)
            if base.startswith("ludotheque"):
                yield base, node.lineno
                for alias in node.names:
                    yield f"{base}.{alias.name}", node.lineno


ALL = modules()


def edges() -> dict[str, set[str]]:
    """Who imports whom when it runs, deferred imports in functions included: a deferred import hides a cycle
    from Python's loader, not from a reader."""
    graph: dict[str, set[str]] = {name: set() for name in ALL}
    for name, tree in ALL.items():
        for target, _ in imports(name, tree, running=True):
            if target in ALL and target != name:
                graph[name].add(target)
    return graph


def test_every_unit_has_a_floor() -> None:
    assert {unit(name) for name in ALL} <= set(LAYERS)


def test_nothing_imports_what_stands_above_it() -> None:
    upward = [
        f"{name}:{line} imports {target}"
        for name, tree in ALL.items()
        for target, line in imports(name, tree)
        if target in ALL and LAYERS[unit(target)] > LAYERS[unit(name)]
    ]
    assert upward == []


#: What ``server/store/`` may import of the server besides itself: the tables' declaration and the refusals and
#: limits it raises.  The store sits below the routes, the live tables and the push sender, which call it.
STORE_FLOOR = {"ludotheque.server.schema", "ludotheque.server.errors", "ludotheque.server.limits"}


def test_the_store_imports_nothing_of_the_server_that_calls_it() -> None:
    reaching = [
        f"{name}:{line} imports {target}"
        for name, tree in ALL.items()
        if name == "ludotheque.server.store" or name.startswith("ludotheque.server.store.")
        for target, line in imports(name, tree)
        if target in ALL and target.startswith("ludotheque.server")
        and not (target == "ludotheque.server.store" or target.startswith("ludotheque.server.store."))
        and target not in STORE_FLOOR
    ]
    assert reaching == []


def test_core_imports_no_game() -> None:
    reaching = [
        f"{name}:{line} imports {target}"
        for name, tree in ALL.items()
        if unit(name) == "core"
        for target, line in imports(name, tree)
        if target.startswith("ludotheque.games")
    ]
    assert reaching == []


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    counter = itertools.count()

    def visit(node: str) -> None:
        index[node] = low[node] = next(counter)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_but_the_known_ones() -> None:
    graph = edges()
    # a package's __init__ re-exporting its own modules is not a cycle of meaning
    for name in graph:
        graph[name] = {target for target in graph[name] if not name.startswith(target + ".")}
    cycles = {frozenset(component) for component in strongly_connected(graph)}
    assert cycles == KNOWN_CYCLES


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


#: Game ids that are also other words in the code: OpenSkill names its mean rating ``mu``.
HOMONYMS = {"mu"}


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_no_module_outside_games_names_a_game(game_id: str) -> None:
    """A game's id appears in no string of a module outside ``games/`` (docstrings and comments aside, and ids
    that are other words too), and no such module imports a game's package: the other layers find a game
    through the registry and its ``GameType``."""
    naming = []
    for name, tree in ALL.items():
        if unit(name) in {"games", "games.bench"}:
            continue
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            named = isinstance(node, ast.Constant) and node.value == game_id and game_id not in HOMONYMS
            if named and id(node) not in docstrings:
                naming.append(f"{name}:{node.lineno}")
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(f"ludotheque.games.{game_id}"):
                naming.append(f"{name}:{node.lineno} imports {node.module}")
    assert naming == [], naming

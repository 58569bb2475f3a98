"""The server's wiring (docs/architecture.md, "Where things live"): every setting is read into ``Settings`` and
nowhere else, the state a live table shares with others is its ``Services``', never a module's, and a fault point of
the crash tests is a part put in place by the assembly, not a branch on the commit path."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

import ludotheque.server
from ludotheque.server.config import Settings
from ludotheque.server.db import make_engine, migrate
from ludotheque.server.faults import CrashAfterCommit, store_for
from ludotheque.server.store import Store

SERVER = Path(ludotheque.server.__file__).parent
#: where the environment may be read: the settings themselves, the transport of a worker's settings
#: (``app_from_environment``), and the test harness that starts server processes with an environment
READS_THE_ENVIRONMENT = {"config.py", "app.py", "process.py"}


def reads_environment(tree: ast.Module) -> list[int]:
    return sorted(node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os"
            and node.attr in ("environ", "getenv"))


def test_only_the_settings_read_the_environment() -> None:
    reading = {str(path.relative_to(SERVER)): lines
               for path in sorted(SERVER.rglob("*.py"))
               if path.name not in READS_THE_ENVIRONMENT or path.parent != SERVER
               if (lines := reads_environment(ast.parse(path.read_text())))}
    assert reading == {}


def test_the_finder_finds_a_read() -> None:
    assert reads_environment(ast.parse("import os\nx = os.environ.get('A')\ny = os.getenv('B')")) == [2, 3]


@pytest.mark.parametrize(("variable", "value", "field", "expected"), [
    ("LUDOTHEQUE_HINT_SECONDS", "0.3", "hint_seconds", 0.3),
    ("LUDOTHEQUE_HINT_PLAYOUTS", "24", "hint_playouts", 24),
    ("LUDOTHEQUE_REVIEW_SECONDS", "5", "review_seconds", 5.0),
    ("LUDOTHEQUE_REVIEW_PLAYOUTS", "30", "review_playouts", 30),
    ("LUDOTHEQUE_REVIEWS_QUEUED", "1", "reviews_queued", 1),
    ("LUDOTHEQUE_COACH_MODEL", "heuristic", "coach_model", "heuristic"),
    ("LUDOTHEQUE_DB_WAIT_S", "0.5", "db_wait_s", 0.5),
    ("LUDOTHEQUE_DATA", "/srv/ludo", "data_dir", "/srv/ludo"),
    ("LUDOTHEQUE_PUSH_CONTACT", "mailto:admin@example.org", "push_contact", "mailto:admin@example.org"),
    ("LUDOTHEQUE_PUSH_ALLOW_HTTP", "1", "push_allow_http", True),
    ("FORWARDED_ALLOW_IPS", "10.0.0.1,10.0.0.2", "forwarded_allow_ips", "10.0.0.1,10.0.0.2"),
])
def test_each_variable_sets_its_setting(monkeypatch: pytest.MonkeyPatch, variable: str, value: str, field: str,
                                        expected: object) -> None:
    default = getattr(Settings(), field)
    monkeypatch.setenv(variable, value)
    assert getattr(Settings(), field) == expected != default


#: module-level names whose value is a fresh mutable container or a lock: state shared by whoever imports it
MUTABLE = {"set", "dict", "list", "Counter", "OrderedDict", "deque", "WeakKeyDictionary", "WeakValueDictionary",
           "Lock", "RLock", "Semaphore", "BoundedSemaphore"}
#: the modules a live table's work runs through
TABLE_MODULES = [*sorted((SERVER / "live").glob("*.py")), *(SERVER / name for name in (
    "lobby.py", "services.py", "push.py", "review.py", "correspondence.py", "faults.py", "tables.py"))]


def module_state(tree: ast.Module) -> list[str]:
    found = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) and node.value is not None else []
        value = getattr(node, "value", None)
        called = isinstance(value, ast.Call) and ast.unparse(value.func).split(".")[-1] in MUTABLE
        empty = ((isinstance(value, ast.Set | ast.List) and not value.elts)
                 or (isinstance(value, ast.Dict) and not value.keys))
        mutable = called or empty
        if mutable:
            found.extend(ast.unparse(target) for target in targets)
    return found


@pytest.mark.parametrize("path", TABLE_MODULES, ids=lambda path: path.name)
def test_a_live_tables_modules_keep_no_state(path: Path) -> None:
    assert module_state(ast.parse(path.read_text())) == []


def test_the_state_finder_finds_state() -> None:
    tree = ast.parse("import weakref\nA = set()\nB: dict[str, int] = {}\nC = weakref.WeakKeyDictionary()\n"
                     "D = {'fr': 1}\nE = (1, 2)\n")
    assert module_state(tree) == ["A", "B", "C"]


def test_the_crash_fault_is_a_store_put_in_place_by_the_settings(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
    migrate(engine)
    assert type(store_for(Settings(db_url=str(engine.url)), engine)) is Store
    assert isinstance(store_for(Settings(db_url=str(engine.url), crash_after_commit=2), engine), CrashAfterCommit)
    engine.dispose()


def test_two_processes_services_count_hints_apart() -> None:
    """Two ``HintDesk`` (two servers in one test process, say) do not share their counts."""
    from ludotheque.server.live.hints import HintDesk

    class Row:
        created_by = "someone"
        hints = False  # the hint is refused once its task runs: the counts are given back

    class Live:
        id = "t1"
        row = Row()

    class Socket:
        seat = 0

        def __init__(self) -> None:
            self.frames: list[dict[str, object]] = []

        def push(self, frame: dict[str, object]) -> None:
            self.frames.append(frame)

    async def main() -> None:
        one, other = HintDesk(hints_per_creator=2), HintDesk(hints_per_creator=2)
        first, again, elsewhere = Socket(), Socket(), Socket()
        one.ask(Live(), first)  # type: ignore[arg-type]
        one.ask(Live(), again)  # type: ignore[arg-type]
        other.ask(Live(), elsewhere)  # type: ignore[arg-type]
        assert [frame.get("code") for frame in again.frames] == ["rate_limited"]  # one hint at a time a seat
        assert elsewhere.frames == []  # the other desk has none under way
        assert one.asking == {("t1", 0)} and one.by_creator == {"someone": 1}
        await asyncio.gather(*one.tasks, *other.tasks)
        assert [frame.get("code") for frame in first.frames] == ["unauthorized"]  # this table gives no hints
        assert one.asking == set() and not one.by_creator and not one.tasks

    asyncio.run(main())

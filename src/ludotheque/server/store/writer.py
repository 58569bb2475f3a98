"""The database's one writer: the queue every write waits in, whoever calls it.

Each engine has one ``Writer`` (``writer_of``), shared by every ``Store`` and every ``write`` on it, so that the
tables, the players, the push subscriptions and the chat all commit through the same threads.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from sqlalchemy import Connection, Engine

T = TypeVar("T")
P = ParamSpec("P")


class Writer:
    """The queue a database's writes wait in.  SQLite has one writer at a time: writes wait in one thread's queue
    instead of contending for the file's lock (whose retries sleep); PostgreSQL takes them side by side."""

    def __init__(self, threads: int) -> None:
        self._here = threading.local()
        self.executor: Executor = ThreadPoolExecutor(threads, thread_name_prefix="ludotheque-db",
                                                     initializer=self._mark)

    def _mark(self) -> None:
        self._here.writer = True

    def inside(self) -> bool:
        """Whether the calling thread is one of the writer's."""
        return bool(getattr(self._here, "writer", False))

    def run(self, call: Callable[[], T]) -> T:
        """``call`` run by the writer, waited for; at once in a writer's thread (a write that calls another, or a
        caller that hands the writer its work itself), which would otherwise wait for itself."""
        if self.inside():
            return call()
        return self.executor.submit(call).result()


_writers: weakref.WeakKeyDictionary[Engine, Writer] = weakref.WeakKeyDictionary()
_writers_lock = threading.Lock()


def writer_of(engine: Engine) -> Writer:
    """The one writer of the database ``engine`` reaches, shared by every ``Store`` and ``write`` on it."""
    with _writers_lock:
        writer = _writers.get(engine)
        if writer is None:
            writer = _writers[engine] = Writer(1 if engine.dialect.name == "sqlite" else 8)
        return writer


def write(engine: Engine, work: Callable[[Connection], T]) -> T:
    """``work`` in one transaction, run by the database's writer (the caller's thread waits for it): the way every
    write outside ``Store``'s own methods (the players' accounts and sessions, the push subscriptions) reaches the
    database."""

    def transaction() -> T:
        with engine.begin() as db:
            return work(db)

    return writer_of(engine).run(transaction)


class HasWriter(Protocol):
    writer: Writer


W = TypeVar("W", bound=HasWriter)


def written(method: Callable[Concatenate[W, P], T]) -> Callable[Concatenate[W, P], T]:
    """A method that writes (``Store``'s): run by its object's writer whatever thread calls it."""

    def in_writer(self: W, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self.writer.run(functools.partial(method, self, *args, **kwargs))

    functools.update_wrapper(in_writer, method)
    return in_writer

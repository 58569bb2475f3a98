"""The pages: the lobby, a table, the shell's static files and each game's web folder (``games/<id>/web/``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from ludotheque.games import game_ids, game_type
from ludotheque.web import STATIC

#: The files a game's web folder may serve, by suffix, with their media type.
_MEDIA = {".js": "text/javascript", ".json": "application/json", ".md": "text/markdown; charset=utf-8",
          ".svg": "image/svg+xml", ".css": "text/css", ".png": "image/png"}


def game_web_folder(game_id: str) -> Path:
    return game_type(game_id).web_folder


#: Every page is the same shell around its own script (``static/js/<script>.js``), which draws it.
_SHELL = (STATIC / "page.html").read_text(encoding="utf-8")


def shell(script: str) -> HTMLResponse:
    """The page whose script is ``static/js/<script>.js``."""
    return HTMLResponse(_SHELL.replace("{script}", script))


def mount_pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def lobby_page() -> HTMLResponse:
        return shell("lobby")

    @app.get("/tables/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> HTMLResponse:
        return shell("table")

    @app.get("/games/{game_id}/web/{name}", include_in_schema=False)
    def game_file(game_id: str, name: str) -> FileResponse:
        suffix = Path(name).suffix
        if game_id not in game_ids() or suffix not in _MEDIA or "/" in name or name.startswith("."):
            raise HTTPException(404, "no such file")
        path = game_web_folder(game_id) / name
        if not path.is_file():
            raise HTTPException(404, "no such file")
        return FileResponse(path, media_type=_MEDIA[suffix])

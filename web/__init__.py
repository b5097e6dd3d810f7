"""The web app: ``create_app(config)`` with blueprints for pages, API and events.

The app holds no game logic: every request turns into a call on the
:class:`scorer.table.Table` in ``app.config["TABLE"]`` (injected by tests and by
``scorer serve``, or built here from ``DATABASE``), and every change reaches the
pages as a Server-Sent Event carrying the full state.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, request
from werkzeug.routing import IntegerConverter

from web.language import LANGUAGES, compiled_translations, select_locale


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` may carry ``TABLE`` or ``DATABASE``, ``LANG``, ``PHOTOS``,
    ``PAIRING`` (False: every device on the network may change games), ``PUBLIC_URL``
    (the address phones use, for the pairing QR code) and ``SECRET_KEY``."""
    from flask_babel import Babel

    app = Flask(__name__)
    app.json.ensure_ascii = False  # Cyrillic names stay readable in pages and the API
    app.json.sort_keys = False
    app.config.update(
        LANG="en",
        DATABASE=None,
        PHOTOS=None,
        TABLE=None,
        SECRET_KEY=None,
        PAIRING=True,
        PUBLIC_URL=None,
        MAX_CONTENT_LENGTH=256 * 1024,  # a move is a few bytes; a bigger body is junk (413)
        SEND_FILE_MAX_AGE_DEFAULT=300,
    )
    if config:
        app.config.update(config)
    if app.config["TABLE"] is None:
        app.config["TABLE"] = _build_table(app.config)
    table = app.config["TABLE"]
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _secret_key(table)
    if app.config["PHOTOS"] is None and getattr(table, "photos", None) is not None:
        app.config["PHOTOS"] = table.photos

    app.config["BABEL_DEFAULT_LOCALE"] = app.config["LANG"]
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(compiled_translations())
    Babel(app, locale_selector=lambda: select_locale(request, app.config["LANG"]))

    from web import api, dice, events, pages, pairing

    app.url_map.converters["int"] = StoredInteger
    pairing.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(dice.bp)
    app.register_blueprint(events.bp)

    @app.context_processor
    def languages() -> dict[str, Any]:
        return {"LANGUAGES": LANGUAGES}

    return app


class StoredInteger(IntegerConverter):
    """``<int:...>`` in every route: an id SQLite can hold (an id past 2**63 - 1 is a 404,
    not an OverflowError deep in the store)."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(map, *args, **kwargs)


def _secret_key(table: Any) -> str:
    """The cookie key kept beside the games, so a restart keeps the phones paired."""
    from web.pairing import load_secret

    store_path = getattr(getattr(table, "store", None), "path", None)
    if store_path is None:  # a table without a file: pairings last until the restart
        return os.urandom(32).hex()
    return load_secret(Path(store_path).parent)


def _build_table(config: Mapping[str, Any]) -> Any:
    from scorer.bus import Bus
    from scorer.datadir import default_db
    from scorer.store import Store
    from scorer.table import Table

    db = Path(config.get("DATABASE") or default_db())
    db.parent.mkdir(parents=True, exist_ok=True)
    photos = Path(config.get("PHOTOS") or db.parent / "photos")
    from scorer.dice_sets import DiceSets

    return Table(
        Store(db),
        Bus(),
        camera=None,
        reader=None,
        photos=photos,
        dice_sets=DiceSets(db.parent / "dice-sets"),
    )

"""The page's language: English, Russian or Ukrainian, with the cell names players use.

Translations are kept as ``.po`` text in ``web/translations``; the binary ``.mo``
files are compiled at app start into a cache folder, so a fresh clone works and
no binary is committed.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES: dict[str, str] = {"en": "English", "ru": "Русский", "uk": "Українська"}
SOURCES = Path(__file__).parent / "translations"


def compiled_translations(sources: Path = SOURCES) -> Path:
    """A folder of compiled ``<lang>/LC_MESSAGES/messages.mo``, rebuilt when a .po changes."""
    pos = sorted(sources.glob("*/LC_MESSAGES/messages.po"))
    digest = hashlib.sha1()
    for po in pos:
        digest.update(po.read_bytes())
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    target = cache / "dice-scorer" / f"translations-{digest.hexdigest()[:12]}"
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        target = Path(tempfile.mkdtemp(prefix="dice-scorer-translations-"))
    for po in pos:
        lang = po.parent.parent.name
        mo = target / lang / "LC_MESSAGES" / "messages.mo"
        if mo.exists():
            continue
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as src:
            catalog = read_po(src, locale=lang)
        partial = mo.with_suffix(f".{os.getpid()}.tmp")
        with partial.open("wb") as out:
            write_mo(out, catalog)
        partial.replace(mo)
    return target


def select_locale(request: Any, default: str) -> str:
    """``?lang=`` first, then the ``lang`` cookie a page set, then the server's language."""
    for candidate in (request.args.get("lang"), request.cookies.get("lang")):
        if candidate in LANGUAGES:
            return candidate
    return default if default in LANGUAGES else "en"

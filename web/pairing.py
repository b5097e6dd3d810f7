"""Who may change the scores: the people at the table.

Anyone on the network may look (every page, every GET, the event stream);
changing a game needs to be at the table. At the table means the Pi itself
(a loopback address: the kiosk browser runs there), or a phone paired with the
short PIN the kiosk shows beside a QR code of ``/pair?pin=...``. Pairing sets a
signed, HttpOnly, SameSite=Strict cookie valid for a day; the key that signs it
lives in the data folder (mode 0600), so a restart does not unpair the phones.

Every state-changing request also passes a cross-site check: browsers add an
``Origin`` (or ``Referer``) to every POST, and it must name this server; a body
must be JSON, which an HTML form on another site cannot send. The decision is
made in one place, :func:`guard`, run before every request.

``PAIRING = False`` (``scorer serve --pairing off``) trusts the whole network,
for a home where every phone on the Wi-Fi belongs to a player.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from itsdangerous import BadSignature, URLSafeTimedSerializer

bp = Blueprint("pairing", __name__)

PIN_SECONDS = 600
"""A PIN is shown this long, then a new one replaces it (and after each use)."""

PAIRED_SECONDS = 24 * 3600
"""A paired phone stays paired this long: a game night, not forever."""

COOKIE = "scorer_paired"

WRONG_PER_MINUTE = 5
"""Wrong PINs one address may try in a minute before it must wait."""

WRONG_PER_PIN = 20
"""Wrong PINs, from anywhere, after which the PIN is replaced: guessing starts over."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SECRET_FILE = "secret.key"


class TooManyTries(Exception):
    """An address typed too many wrong PINs; it waits ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many wrong PINs: try again in {retry_after} s")
        self.retry_after = retry_after


class Pairing:
    """The kiosk's PIN and the phones' cookies.

    >>> pairing = Pairing("a secret", clock=lambda: 0.0)
    >>> pin = pairing.pin()
    >>> len(pin), pin.isdigit()
    (6, True)
    >>> pairing.try_pin("not it", "192.168.1.20")
    False
    >>> token = pairing.pair(pin, "192.168.1.20")
    >>> pairing.is_paired(token), pairing.pin() != pin    # a used PIN is replaced
    (True, True)
    """

    def __init__(
        self,
        secret: str | bytes,
        *,
        pin_seconds: float = PIN_SECONDS,
        paired_seconds: float = PAIRED_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._signer = URLSafeTimedSerializer(secret, salt="scorer-pairing")
        self.pin_seconds = pin_seconds
        self.paired_seconds = paired_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._pin = ""
        self._pin_until = float("-inf")
        self._wrong_for_pin = 0
        self._wrong: dict[str, deque[float]] = {}

    def pin(self) -> str:
        """The PIN the kiosk shows now (a fresh one once the old expired)."""
        with self._lock:
            if self._clock() >= self._pin_until:
                self._rotate()
            return self._pin

    def expires(self) -> float:
        """When the current PIN is replaced (clock seconds)."""
        self.pin()
        return self._pin_until

    def _rotate(self) -> None:
        self._pin = f"{secrets.randbelow(10**6):06d}"
        self._pin_until = self._clock() + self.pin_seconds
        self._wrong_for_pin = 0

    def try_pin(self, pin: str, address: str) -> bool:
        """Whether ``pin`` is the kiosk's; wrong ones count against ``address``.

        Raises :class:`TooManyTries` while the address must wait.
        """
        now = self._clock()
        current = self.pin()
        with self._lock:
            wrong = self._wrong.setdefault(address, deque())
            while wrong and now - wrong[0] >= 60:
                wrong.popleft()
            if len(wrong) >= WRONG_PER_MINUTE:
                raise TooManyTries(max(1, int(60 - (now - wrong[0])) + 1))
            if secrets.compare_digest(str(pin).strip(), current):
                self._rotate()  # used: the next phone needs the next PIN
                return True
            wrong.append(now)
            self._wrong_for_pin += 1
            if self._wrong_for_pin >= WRONG_PER_PIN:
                self._rotate()
            if len(self._wrong) > 1024:  # forget idle addresses
                for key in [k for k, v in self._wrong.items() if not v]:
                    del self._wrong[key]
            return False

    def pair(self, pin: str, address: str) -> str | None:
        """The cookie value for a phone that typed the right PIN, else None."""
        if not self.try_pin(pin, address):
            return None
        return self._signer.dumps({"phone": secrets.token_hex(8)})

    def is_paired(self, token: str | None) -> bool:
        """Whether a cookie value is one this table signed in the last day."""
        if not token:
            return False
        try:
            self._signer.loads(token, max_age=self.paired_seconds)
        except BadSignature:  # also SignatureExpired
            return False
        return True


def load_secret(folder: Path) -> str:
    """The key that signs the pairing cookies, kept in ``folder`` across restarts.

    Created once, readable by its owner only: whoever reads it could forge a
    paired phone.
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SECRET_FILE
    with contextlib.suppress(FileExistsError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32) + "\n")
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    secret = path.read_text().strip()
    if len(secret) < 32:
        raise RuntimeError(f"{path} holds no usable key: delete it and restart")
    return secret


# -- the decision ----------------------------------------------------------------------


def is_loopback(address: str | None) -> bool:
    """Whether a peer address is this machine (where the kiosk browser runs)."""
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def pairing() -> Pairing:
    return current_app.extensions["pairing"]


def at_table() -> bool:
    """Whether this request may change games: pairing off, the Pi itself, or a paired phone."""
    if not current_app.config.get("PAIRING", True):
        return True
    if is_loopback(request.remote_addr):
        return True
    return pairing().is_paired(request.cookies.get(COOKIE))


def cross_site_problem() -> str | None:
    """Why a state-changing request may come from another site's page, or None."""
    here = request.host.lower()
    origin = request.headers.get("Origin")
    if origin is not None:
        parts = urlsplit(origin)
        if origin == "null" or parts.netloc.lower() != here:
            return f"a request from another site ({origin}) may not change the game"
    else:
        referer = request.headers.get("Referer")
        if referer and urlsplit(referer).netloc.lower() != here:
            return "a request from another site may not change the game"
    return None


def body_problem() -> str | None:
    """Why the body is not the JSON an API call sends (forms cannot send JSON cross-site)."""
    has_body = bool(request.content_length) or bool(request.get_data(cache=True))
    content_type = request.headers.get("Content-Type")
    if (content_type is not None or has_body) and request.mimetype != "application/json":
        return "send the request body as JSON (Content-Type: application/json)"
    return None


def refuse(status: int, error: str, message: str) -> tuple[Response, int]:
    from web.refusals import translate

    return jsonify({"error": error, "message": translate(message)}), status


def guard() -> tuple[Response, int] | None:
    """Every request passes here first: reads are free, changes need the table."""
    if request.method in SAFE_METHODS:
        return None
    problem = cross_site_problem()
    if problem:
        return refuse(403, "CrossSite", problem)
    if request.endpoint == "pairing.pair":
        return None  # the PIN form itself: the PIN is its proof
    problem = body_problem()
    if problem:
        return refuse(415, "NotJson", problem)
    if not at_table():
        return refuse(
            403,
            "NotPaired",
            "Only the table may change the game: pair this phone on /pair "
            "with the PIN the table's screen shows.",
        )
    return None


def init_app(app: Flask) -> None:
    """Attach pairing: the PIN holder, the guard before every request, the /pair pages."""
    app.config.setdefault("PAIRING", True)
    app.extensions["pairing"] = Pairing(app.config["SECRET_KEY"])
    app.before_request(guard)
    app.register_blueprint(bp)

    @app.context_processor
    def pairing_globals() -> dict[str, Any]:
        on = bool(current_app.config.get("PAIRING", True))
        return {
            "pairing_on": on,
            "at_table": at_table(),
            "kiosk_pairing": on and is_loopback(request.remote_addr),
        }


# -- the pages -------------------------------------------------------------------------


def pair_url(pin: str) -> str:
    """The address a phone opens to pair: the Pi's address on the network, not localhost."""
    return f"{phone_base(network_address)}/pair?pin={pin}"


def phone_base(local_name: Callable[[], str] | None = None) -> str:
    """This server as a phone on the network reaches it (``--public-url``, else the host
    the request named, else, for the kiosk on loopback, ``local_name()``: by default the
    Pi's LAN name, ``<hostname>.local``)."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return str(public).rstrip("/")
    host = request.host
    name, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    if is_loopback(name) or name in ("localhost", ""):
        name = (local_name or lan_name)()
    return f"{request.scheme}://{name}{':' + port if port else ''}"


def lan_name() -> str:
    """The name the Pi answers to on the LAN (mDNS, as Raspberry Pi OS sets it up)."""
    return f"{socket.gethostname()}.local"


def network_address() -> str:
    """This machine's address on the network (no packet is sent), or ``<hostname>.local``."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = probe.getsockname()[0]
            if not is_loopback(address):
                return address
        except OSError:
            pass
    return f"{socket.gethostname()}.local"


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as SVG, drawn here: the Pi is offline, no CDN."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=4, border=2, dark="#000", light="#fff", xmldecl=False
    )
    return out.getvalue().decode()


def kiosk_only() -> tuple[Response, int] | None:
    if not is_loopback(request.remote_addr):
        return refuse(403, "NotKiosk", "the PIN is shown on the table's own screen only")
    return None


@bp.get("/pair/code.json")
def code() -> Response | tuple[Response, int]:
    """The PIN and its QR code for the kiosk's corner (loopback only)."""
    refused = kiosk_only()
    if refused:
        return refused
    pin = pairing().pin()
    url = pair_url(pin)
    return jsonify(
        {
            "pin": pin,
            "url": url,
            "svg": qr_svg(url),
            "expires_in": round(pairing().expires() - time.time()),
            "on": bool(current_app.config.get("PAIRING", True)),
        }
    )


@bp.route("/pair", methods=["GET", "POST"])
def pair() -> Any:
    """The phone's side: type (or scan) the PIN, get the cookie."""
    message = ""
    status = 200
    if request.method == "POST":
        pin = request.form.get("pin", "")
        try:
            token = pairing().pair(pin, request.remote_addr or "?")
        except TooManyTries as err:
            token = None
            message = _("Too many wrong PINs: try again in %(n)s s.", n=err.retry_after)
            status = 429
        else:
            if token is None:
                message = _("That is not the PIN on the table's screen.")
                status = 403
        if token is not None:
            response = redirect(url_for("pages.play"))
            response.set_cookie(
                COOKIE,
                token,
                max_age=PAIRED_SECONDS,
                httponly=True,
                samesite="Strict",
                secure=request.is_secure,
            )
            return response
    html = render_template(
        "pair.html",
        page="pair",
        pin=request.args.get("pin", "") if request.method == "GET" else "",
        message=message,
        strings={},
    )
    return html, status

"""``scorer serve``: the table's web server, camera, button and LED in one process.

One process on purpose: the camera, the GPIO pins and the event bus live in it,
and waitress gives each open Server-Sent Events stream a worker thread (hence
the raised thread count). On a machine with no camera and no GPIO it serves the
demo: rendered throws, and dice typed in on the page.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from scorer.errors import ScorerError
from scorer.vision.reading import BACKENDS, fastest_backend

log = logging.getLogger("scorer.serve")

LANGS = ("en", "ru", "uk")


def register(subparsers: Any) -> None:
    from scorer.devices.spec import add_device_arguments

    parser = subparsers.add_parser(
        "serve",
        help="serve the scoresheet pages and the API (the table's main program)",
        description=__doc__.splitlines()[0],
    )
    add_device_arguments(parser, camera="auto", button="none", led="none")
    parser.add_argument("--db", type=Path, default=None, help="SQLite file of the games")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (0.0.0.0)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument("--lang", choices=LANGS, default="en", help="the kiosk's language")
    parser.add_argument(
        "--threads", type=int, default=32, help="worker threads (each open page holds one)"
    )
    parser.add_argument("--frames", type=int, default=3, help="frames captured per press")
    parser.add_argument(
        "--backend",
        choices=("auto", *BACKENDS),
        default="auto",
        help="what runs the reader's networks: auto (onnxruntime where installed, about "
        "twice as fast, else cv2), cv2 (OpenCV's dnn) or onnxruntime",
    )
    parser.add_argument(
        "--pairing",
        choices=("on", "off"),
        default="on",
        help="on: only the Pi and phones paired with the kiosk's PIN change games; "
        "off: trust every device on the network (a home Wi-Fi)",
    )
    parser.add_argument(
        "--public-url",
        default=None,
        help="the address phones open, for the pairing QR code (default: this machine's "
        "address on the network, e.g. http://192.168.1.23:8000)",
    )
    parser.set_defaults(run=run)


class RendererReader:
    """The demo's stand-in reader: the renderer tells which dice it drew.

    Used only when the demo camera runs and no dice reader is installed, so that
    ``make run`` on a laptop plays by pressing "Throw complete". Every die gets
    confidence 1.0 and the box the renderer drew it in; the pages say the reader is
    the demo's.
    """

    def __init__(self, camera: Any) -> None:
        self.camera = camera

    def read(self, frame: Any, faces: str = "any", least: int = 0) -> Any:
        from scorer.vision.reading import Die, Reading

        source = getattr(self.camera, "adapter", None) or self.camera
        values = tuple(getattr(source, "last_values", ()) or ())
        boxes = list(getattr(source, "last_boxes", ()) or ())
        face = "card" if getattr(source, "kind", "pips") == "cards" else "pips"
        height, width = frame.shape[:2]
        step = width // max(1, len(values) + 1)
        if len(boxes) != len(values):  # drawn stand-in dice: a row across the middle
            boxes = [
                (step * (i + 1) - step // 3, height // 2 - step // 3, 0, 0)
                for i in range(len(values))
            ]
        dice = tuple(
            Die(int(v), face, 1.0, tuple(box)) for v, box in zip(values, boxes, strict=True)
        )
        return Reading(dice=dice, ms=0.0)


def build_table(args: argparse.Namespace) -> Any:
    """The table with the devices the command line names; faults degrade, never abort."""
    from scorer.bus import Bus
    from scorer.datadir import default_db
    from scorer.devices import open_camera
    from scorer.dice_sets import DiceSets
    from scorer.store import Store
    from scorer.table import Table, load_reader

    db = Path(args.db) if args.db else default_db()
    db.parent.mkdir(parents=True, exist_ok=True)
    store = Store(db)
    bus = Bus()
    holder: dict[str, Any] = {}

    def on_health(problem: str | None) -> None:
        table = holder.get("table")
        if table is not None:
            table.on_camera_health(problem)

    camera = open_camera(args.camera, on_health=on_health)
    backend = fastest_backend() if args.backend == "auto" else args.backend
    reader = load_reader(backend) if camera is not None else None
    if reader is not None:
        log.info("dice reader on %s", getattr(reader, "backend", backend))
    if camera is not None and reader is None and getattr(camera, "name", "") == "demo":
        reader = RendererReader(camera)
    table = Table(
        store,
        bus,
        camera=camera,
        reader=reader,
        photos=db.parent / "photos",
        tray_file=db.parent / "tray.json",
        dice_sets=DiceSets(db.parent / "dice-sets"),
    )
    table.frames = max(1, args.frames)
    if isinstance(reader, RendererReader):
        table.status.extra["reader_kind"] = "demo"
    holder["table"] = table
    warm_up(camera)
    why = getattr(camera, "why", "")
    if why:
        log.info("camera: %s", why)
    return table


def warm_up(camera: Any) -> None:
    """Set the demo's tray up before serving, not at the first press (each throw then
    renders in a fraction of a second, well within a capture's time limit)."""
    ready = getattr(getattr(camera, "adapter", None), "warm_up", None)
    if callable(ready):
        log.info("demo camera: setting up its tray...")
        try:
            ready()
        except Exception:
            log.exception("demo camera: setting up the tray failed")


def attach_button(table: Any, spec: str, **options: Any) -> Any:
    """The push button: a press throws, a long press undoes, a stuck one shows on the page;
    None when there is none. ``options`` go to :class:`scorer.devices.Button`."""
    from scorer.devices import open_button

    def on_hold() -> None:
        current = table.current()
        if current is None:
            return
        try:
            table.undo(current[0])
        except ScorerError as err:
            table.say(str(err))
            table.publish()

    return open_button(
        spec,
        on_press=lambda: table.press("button"),
        on_hold=on_hold,
        on_health=table.on_button_health,
        **options,
    )


def start_server(
    app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = 32
) -> tuple[Any, threading.Thread]:
    """Serve ``app`` with waitress on a background thread (tests, benchmarks).

    Returns the server (``server.effective_port``; ``server.close()`` stops it)
    and its thread.
    """
    import waitress

    server = waitress.create_server(app, host=host, port=port, threads=threads, channel_timeout=30)
    thread = threading.Thread(target=_run_quietly, args=(server,), name="waitress", daemon=True)
    thread.start()
    return server, thread


def stop_server(server: Any, thread: threading.Thread | None = None) -> None:
    """Stop a :func:`start_server` server: close the table's streams first (``table.close()``),
    then this waits for the workers and closes the socket."""
    with contextlib.suppress(Exception):
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
    # the listening socket, the open connections and the trigger: the loop ends when none is left
    sockets = getattr(server, "_map", None) or getattr(server, "map", None) or {}
    for channel in list(sockets.values()):
        with contextlib.suppress(Exception):
            channel.close()
    if thread is not None:
        thread.join(timeout=5)


def _run_quietly(server: Any) -> None:
    # closed under its feet is the normal way to stop
    with contextlib.suppress(OSError, ValueError):
        server.run()


def drive_led(table: Any, led: Any) -> None:
    """The status LED follows the table: reading, waiting for a tap, or ready."""
    subscription = table.bus.subscribe()
    while not subscription.closed:
        event = subscription.get(timeout=5)
        if event is None:
            continue
        status = event.data.get("table") or {}
        with contextlib.suppress(Exception):
            if status.get("busy"):
                led.reading()
            elif status.get("pending") or event.data.get("unsure"):
                led.attention()
            else:
                led.ready()


def answers(host: str, port: int) -> bool:
    """The systemd watchdog's question: does the server still answer a request?"""
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://{host}:{port}/api/table", timeout=5) as reply:
            return reply.status == 200
    except OSError:
        return False


def run(args: argparse.Namespace) -> int:
    import waitress

    from web import create_app

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    table = build_table(args)
    button = attach_button(table, args.button)
    led = None
    if args.led != "none":
        from scorer.devices import open_status_led

        led = open_status_led(args.led)
        if led is not None:
            led.ready()
    app = create_app(
        {
            "TABLE": table,
            "LANG": args.lang,
            "PAIRING": args.pairing == "on",
            "PUBLIC_URL": args.public_url,
        }
    )
    table.start()
    server = waitress.create_server(
        app, host=args.host, port=args.port, threads=args.threads, channel_timeout=30
    )
    stopping = threading.Event()

    def stop(signum: int, frame: Any) -> None:
        # End the open event streams first, then leave waitress's loop: it stops
        # its worker threads itself on KeyboardInterrupt.
        if not stopping.is_set():
            stopping.set()
            table.bus.close()
            raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    host = "localhost" if args.host in ("0.0.0.0", "::") else args.host
    print(f"scorer: serving http://{host}:{server.effective_port}/", file=sys.stderr, flush=True)
    if led is not None:
        threading.Thread(target=drive_led, args=(table, led), name="led", daemon=True).start()
    from scorer.devices import watchdog

    port = server.effective_port
    local = "127.0.0.1" if args.host in ("0.0.0.0", "::", "localhost") else args.host
    watchdog.ready(f"serving on port {port}", alive=lambda: answers(local, port))
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        watchdog.stopping()
        table.close()
        with contextlib.suppress(OSError):
            server.close()
        for device in (button, led):
            if device is not None:
                device.close()
        table.store.close()
    return 0

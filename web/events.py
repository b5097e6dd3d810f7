"""``GET /api/events``: the table's Server-Sent Events stream.

Each event carries the full state; a page that reconnects sends
``Last-Event-ID`` and gets what it missed. A heartbeat comment keeps idle
streams open. On waitress each open stream holds one worker thread, so
``scorer serve`` raises the thread count.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request

from web.openapi import Reply, operation

bp = Blueprint("events", __name__, url_prefix="/api")


def last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    try:
        return int(raw) if raw is not None else None
    except ValueError:
        return None


@bp.get("/events")
@operation(
    "Server-Sent Events: `state` (the whole state of the game that changed, with `table`) and "
    "`table` (table status only); increasing `id:` for Last-Event-ID resume; a comment "
    "heartbeat every 15 s",
    {200: Reply("text/event-stream", media="text/event-stream")},
    parameters=(
        {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "integer"}},
    ),
)
def events() -> Response:
    table = current_app.config["TABLE"]
    heartbeat = float(current_app.config.get("SSE_HEARTBEAT", 15.0))
    subscription = table.bus.subscribe(last_event_id())
    response = Response(subscription.frames(heartbeat), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    response.call_on_close(subscription.close)
    return response

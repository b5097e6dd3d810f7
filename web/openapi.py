"""``/api/openapi.json``, written from the routes themselves and the models of :mod:`web.schema`.

Every ``/api/`` route carries an ``@operation(...)``: its summary, its body model (which
then checks each request: the view gets the model as ``body``), its query model and its
answers. The document walks the app's routes, so a route cannot be left out, and takes
each schema from the model that checks the request, so the two cannot disagree.

>>> from flask import Flask
>>> from web import api
>>> app = Flask(__name__)
>>> app.register_blueprint(api.bp)
>>> doc = document(app)
>>> doc["paths"]["/api/games/{id}/hold"]["post"]["requestBody"]["content"]["application/json"]
{'schema': {'$ref': '#/components/schemas/Hold'}}
>>> doc["components"]["schemas"]["Hold"]["required"]
['held']
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from flask import Flask, request
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from web.schema import Body, Error, json_object

INFO = {
    "title": "Dice scorer API",
    "version": "1",
    "description": (
        "The JSON API the pages use, and phones or scripts can too. Every change is a JSON "
        "POST; errors are JSON `{error, message}`: 400 malformed input, 404 unknown game, 409 "
        "a move the rules forbid now, 403 `NotPaired` (only the table changes games: the Pi "
        "itself, or a phone paired on `/pair` with the PIN the kiosk shows; `scorer serve "
        "--pairing off` trusts the network), 403 `CrossSite` (an `Origin` or `Referer` naming "
        "another site), 415 `NotJson` (a body that is not `application/json`). The state "
        "never changes on an error. Live updates: `GET /api/events` (Server-Sent Events, each "
        "`state` event carries the whole state)."
    ),
}
#: Path parameters as the document names them (the routes say ``game_id``).
PARAMETER_NAMES = {"game_id": "id"}


class Reply(NamedTuple):
    """One answer of an operation: what it means, and its model when it is JSON."""

    description: str
    model: type[BaseModel] | None = None
    media: str = "application/json"


BAD = Reply("malformed input (bad JSON, bad dice, unknown cell or option)", Error)
UNKNOWN = Reply("no such game", Error)
FORBIDDEN = Reply(
    "a move the rules forbid now; StaleState also carries `state`, the fresh state", Error
)


@dataclass(frozen=True)
class Operation:
    """What the document says of one route (see :func:`operation`)."""

    summary: str
    replies: Mapping[int, Reply]
    body: type[Body] | None = None
    query: type[Body] | None = None
    description: str | None = None
    parameters: tuple[dict[str, Any], ...] = field(default=())

    def models(self) -> Iterable[type[BaseModel]]:
        if self.body is not None:
            yield self.body
        yield from (reply.model for reply in self.replies.values() if reply.model is not None)

    def describe(self, path_parameters: list[dict[str, Any]]) -> dict[str, Any]:
        described: dict[str, Any] = {"summary": self.summary}
        if self.description:
            described["description"] = self.description
        parameters = [*path_parameters, *_query_parameters(self.query), *self.parameters]
        if parameters:
            described["parameters"] = parameters
        if self.body is not None:
            described["requestBody"] = {
                "required": bool(self.body.model_json_schema().get("required")),
                "content": {"application/json": {"schema": _ref(self.body)}},
            }
        described["responses"] = {
            str(status): _reply(reply) for status, reply in sorted(self.replies.items())
        }
        return described


def operation(
    summary: str,
    replies: Mapping[int, Reply],
    *,
    body: type[Body] | None = None,
    query: type[Body] | None = None,
    description: str | None = None,
    parameters: tuple[dict[str, Any], ...] = (),
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Document a route and check its requests: ``body`` reads the JSON body into that
    model (passed to the view as ``body``), ``query`` the query string (as ``query``)."""
    described = Operation(summary, replies, body, query, description, parameters)

    def wrap(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def checked(**kwargs: Any) -> Any:
            if body is not None:
                kwargs["body"] = body.check(json_object(request.get_data(cache=True)))
            if query is not None:
                kwargs["query"] = query.check(request.args.to_dict())
            return view(**kwargs)

        checked.operation = described  # type: ignore[attr-defined]
        return checked

    return wrap


class UndocumentedRoute(LookupError):
    """An ``/api/`` route without ``@operation``: the document would leave it out."""


def document(app: Flask) -> dict[str, Any]:
    """The OpenAPI 3.1 document of every ``/api/`` route of ``app``."""
    paths: dict[str, dict[str, Any]] = {}
    models: dict[str, type[BaseModel]] = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        described = getattr(app.view_functions[rule.endpoint], "operation", None)
        if described is None:
            raise UndocumentedRoute(f"{rule.rule} has no @operation (web/openapi.py)")
        path, path_parameters = _path(rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            paths.setdefault(path, {})[method.lower()] = described.describe(path_parameters)
        models.update((model.__name__, model) for model in described.models())
    return {
        "openapi": "3.1.0",
        "info": INFO,
        "paths": paths,
        "components": {"schemas": _schemas(models.values())},
    }


def _path(rule: str) -> tuple[str, list[dict[str, Any]]]:
    parameters = []

    def named(match: re.Match[str]) -> str:
        converter, name = match.group(1) or "default", match.group(2)
        name = PARAMETER_NAMES.get(name, name)
        schema = {"type": "integer", "minimum": 0} if converter == "int" else {"type": "string"}
        parameters.append({"name": name, "in": "path", "required": True, "schema": schema})
        return "{" + name + "}"

    return re.sub(r"<(?:(\w+):)?(\w+)>", named, rule), parameters


def _query_parameters(model: type[Body] | None) -> list[dict[str, Any]]:
    if model is None:
        return []
    schema = _tidy(model.model_json_schema())
    required = set(schema.get("required", ()))
    return [
        {"name": name, "in": "query", "required": name in required, "schema": sub}
        for name, sub in schema.get("properties", {}).items()
    ]


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def _reply(reply: Reply) -> dict[str, Any]:
    described: dict[str, Any] = {"description": reply.description}
    if reply.model is not None:
        described["content"] = {reply.media: {"schema": _ref(reply.model)}}
    elif reply.media != "application/json":  # a stream of text (Server-Sent Events)
        described["content"] = {reply.media: {"schema": {"type": "string"}}}
    return described


def _schemas(models: Iterable[type[BaseModel]]) -> dict[str, Any]:
    _, top = models_json_schema(
        [(model, "validation") for model in models], ref_template="#/components/schemas/{model}"
    )
    return {name: _tidy(schema) for name, schema in sorted(top.get("$defs", {}).items())}


def _tidy(schema: Any) -> Any:
    """The schema as a person would write it: no generated titles, and ``X | None`` as
    ``"type": [X, "null"]`` rather than an ``anyOf`` of two (as tools and the fuzzer read)."""
    if isinstance(schema, list):
        return [_tidy(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    tidy = {
        key: (
            {name: _tidy(sub) for name, sub in value.items()}
            if key in ("properties", "$defs")
            else _tidy(value)
        )
        for key, value in schema.items()
        if key != "title" or not isinstance(value, str)
    }
    options = tidy.get("anyOf")
    if isinstance(options, list) and all("type" in o and "$ref" not in o for o in options):
        rich = [o for o in options if set(o) - {"type"}]
        if len(rich) <= 1:
            merged = dict(rich[0]) if rich else {}
            merged["type"] = [o["type"] for o in options]
            del tidy["anyOf"]
            tidy = {**merged, **tidy}
    return tidy

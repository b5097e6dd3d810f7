"""The table pages of seed 003's bluff and 9x9 board (issue 27).

Both games draw a table of their own (a claim ladder and lives; a board of
chips), so the kiosk ``/`` and the phone ``/play`` render ``seed003.html`` and
``static/seed003.js`` while such a game is the table's current one. Every word
the script draws is here, through the catalogues.
"""

from __future__ import annotations

from typing import Any

from flask import render_template
from flask_babel import gettext as _

from web.names import ruleset_name

RULESETS = ("poker_bluff", "poker_board")
"""The rulesets these pages draw."""


def words() -> dict[str, Any]:
    """The words of the bluff and board pages, in the page's language."""
    return {
        "lives": _("Lives"),
        "out": _("out"),
        "ladder": _("Claims this round"),
        "first_claim": _("%(name)s throws under the cup and claims a hand.", name="{name}"),
        "claim_or_call": _("%(name)s: beat %(claim)s, or call.", name="{name}", claim="{claim}"),
        "top_claim": _("Five aces cannot be beaten: %(name)s must call.", name="{name}"),
        "pick_hand": _("Claim a hand"),
        "pick_ranks": _("Which ranks?"),
        "back": _("Back"),
        "call": _("Call %(name)s's claim", name="{name}"),
        "called": _(
            "%(caller)s calls %(claimer)s: reveal the dice.", caller="{caller}", claimer="{claimer}"
        ),
        "reveal_hint": _("Lift the cup, then press Throw complete (or type the dice)."),
        "revealed": _("Revealed: %(hand)s. Claim: %(claim)s.", hand="{hand}", claim="{claim}"),
        "holds": _("The claim holds: %(name)s loses a life.", name="{name}"),
        "bluff": _("A bluff: %(name)s loses a life.", name="{name}"),
        "is_out": _("%(name)s is out.", name="{name}"),
        "accept": _("Accept the reading"),
        "last_round": _("Last round"),
        "series": _("Series"),
        "place": _("Tap a lit square to place your chip."),
        "remove": _("Remove a chip: tap a lit chip of an opponent."),
        "no_square": _("No square fits these dice."),
        "pass": _("No chip this turn"),
        "made": _("Made: %(hand)s", hand="{hand}"),
        "centre": _("Centre: free, counts for everybody"),
        "lucky": _("Lucky %(n)s", n="{n}"),
        "straight_low": _("Straight 9-K (1-5)"),
        "straight_high": _("Straight 10-A (2-6)"),
        "any_square": _("Five of a kind: any free square"),
        "throw": _("Throw complete"),
        "type": _("Type dice"),
        "typed_hint": _("Type the dice, e.g. 44235"),
        "undo": _("Undo"),
        "hold": _("Hold"),
        "release": _("Release"),
        "close": _("Close"),
        "die_n": _("Die %(n)s", n="{n}"),
    }


def render(
    view: str, state: dict[str, Any], strings: dict[str, Any], status: dict[str, Any]
) -> str:
    """The kiosk (``view="kiosk"``) or phone page of a bluff or board game."""
    strings = dict(strings)
    strings["seed003"] = words()
    return render_template(
        "seed003.html",
        page="seed003",
        view=view,
        state=state,
        strings=strings,
        table_status=status,
        ruleset_title=ruleset_name(state["ruleset"]),
    )

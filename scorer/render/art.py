"""The art printed on rendered dice: pip faces and poker-dice card faces, by family.

A family is one make of dice (body colour, ink, pip shape, font, suits, court
pictures, gloss). :func:`face_art` paints one face flat, as a square texture, with
a mask of where ink lies; the scene in :mod:`scorer.render.scene` lights it and
bends it onto a cube. Textures are cached: a throw reuses the same few faces.

:func:`random_art` draws a fresh make of dice for training (domain randomisation):
a reader that has seen hundreds of colourings, fonts and layouts learns that a rank
is a rank, and so reads the held-out families too.
"""

from __future__ import annotations

import colorsys
import dataclasses
import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from scorer.dice import CARD_RANKS, CYRILLIC_RANKS

#: Texture side in texels; a die is 40-90 px wide in a frame, drawn at 2x, so 128 is ample.
TEXELS = 128

Colour = tuple[int, int, int]  # BGR, 0..255, as the camera sees it (sRGB)

BLACK: Colour = (28, 26, 24)
WHITE: Colour = (238, 240, 240)
RED: Colour = (40, 30, 190)
BLUE: Colour = (150, 60, 25)
GOLD: Colour = (40, 170, 215)
SKIN: Colour = (170, 200, 235)


@dataclass(frozen=True)
class DieArt:
    """One family of dice: how its body looks and how its six faces are printed.

    ``face`` is ``"pips"`` or ``"card"``. Card families pick one of four layouts:
    ``"letters"`` (the rank alone), ``"suits"`` (rank over a suit symbol),
    ``"court"`` (court pictures on J, Q, K, a big spade on A, suits on 9 and 10) or
    :data:`PLAYING_CARD` (small playing cards: nine and ten suit symbols on the 9 and 10).
    ``inks`` gives the colour of each value's ink (pip dice use one ink for all).
    """

    name: str
    face: str
    body: Colour
    inks: tuple[Colour, ...]
    layout: str = "pips"
    font: int = cv2.FONT_HERSHEY_DUPLEX
    # A TrueType font file the ranks are set in instead of ``font`` (``typefaces``); "" none.
    typeface: str = ""
    italic: bool = False
    weight: float = 1.0  # stroke weight of ranks, relative to the font's normal
    pip_size: float = 0.09  # pip radius, as a fraction of the face
    pip_spread: float = 0.25  # distance of corner pips from the face's edge, as a fraction
    concave: bool = True  # drilled pips (shaded pits) rather than printed dots
    logo: bool = False  # face 1 shows the maker's logo instead of a single pip
    gloss: float = 0.35  # strength of specular glare
    shininess: float = 160.0
    bevel: float = 0.14  # width of the rounded edge, as a fraction of the face
    marble: Colour | None = None  # a second plastic swirled through the body
    # Share of light the body lets through (0 = opaque): the tray and the pips of the
    # hidden faces show through a translucent die, blurred and tinted by the body.
    translucency: float = 0.0
    # Card art that random families vary; the defaults are the fixed families' look.
    rank_scale: float = 1.0  # size of the rank's text box, relative to the layout's
    rank_shift: tuple[float, float] = (0.0, 0.0)  # the box's offset, as a fraction of the face
    corner_index: bool = False  # small ranks in two corners, as on real poker dice
    suit_scale: float = 1.0  # size of the suit symbol under the rank
    court_colours: tuple[Colour, Colour, Colour] | None = None  # trim, skin, hair of courts
    cap_in_trim: bool = False  # the jack's cap in the trim colour, like the crown and tiara
    court_hats: tuple[str, str, str] = ("cap", "tiara", "crown")  # on J, Q, K: see COURT_HATS
    beards: tuple[bool, bool, bool] = (False, False, True)  # which of J, Q, K wear a beard
    court_index_scale: float = 1.0  # size of the rank printed beside a court picture
    ace_suit: str = "spade"  # the big suit symbol of a court family's ace
    ace_scale: float = 1.0
    # The ranks printed for 9..A: CARD_RANKS, or CYRILLIC_RANKS (only in a ``typeface``:
    # OpenCV's Hershey fonts draw ASCII alone).
    ranks: tuple[str, ...] = CARD_RANKS

    def __post_init__(self) -> None:
        if len(self.ranks) != 6:
            raise ValueError(f"a poker die prints six ranks, not {self.ranks!r}")
        if not self.typeface and not all(r.isascii() for r in self.ranks):
            raise ValueError(
                f"the family {self.name!r} prints {' '.join(self.ranks)}: OpenCV's Hershey "
                "fonts draw ASCII alone, so give it a TrueType typeface"
            )

    def ink(self, value: int) -> Colour:
        """The ink colour of the face that shows ``value``."""
        return self.inks[(value - 1) % len(self.inks)]


def _ranks(*colours: Colour) -> tuple[Colour, ...]:
    return tuple(colours)


#: Red and black as on playing cards: 9 black, 10 red, J black, Q red, K black, A red.
RED_BLACK = _ranks(BLACK, RED, BLACK, RED, BLACK, RED)
#: The classic poker-dice colouring: 9 and 10 black, J blue, Q red, K red, A black.
CLASSIC = _ranks(BLACK, BLACK, BLUE, RED, RED, BLACK)


def _pips(name: str, body: Colour, ink: Colour | tuple[Colour, ...], **kw: object) -> DieArt:
    inks = ink if isinstance(ink[0], tuple) else (ink,)
    return DieArt(name=name, face="pips", body=body, inks=inks, **kw)  # type: ignore[arg-type]


def _cards(name: str, body: Colour, inks: tuple[Colour, ...], layout: str, **kw: object) -> DieArt:
    return DieArt(name=name, face="card", body=body, inks=inks, layout=layout, **kw)  # type: ignore[arg-type]


TRAIN_ART: tuple[DieArt, ...] = (
    _pips("pips-white", (235, 238, 240), BLACK),
    _pips("pips-ivory-logo", (200, 228, 240), BLACK, logo=True, gloss=0.5),
    _pips("pips-black", (38, 36, 34), WHITE, gloss=0.55, shininess=240.0),
    _pips("pips-red", (45, 35, 185), WHITE, pip_size=0.085, gloss=0.6, shininess=300.0),
    _pips("pips-green", (70, 150, 40), WHITE, concave=False, gloss=0.45),
    _pips("pips-blue", (170, 90, 30), WHITE, pip_size=0.1, pip_spread=0.23),
    _pips("pips-yellow", (40, 205, 235), BLACK, pip_size=0.08, bevel=0.18),
    # Chinese-style dice: the one and the four are red, the one is big.
    _pips("pips-white-red-one-four", (225, 232, 236), (RED, BLACK, BLACK, RED, BLACK, BLACK)),
    _pips("pips-marble-teal", (120, 130, 40), WHITE, marble=(40, 50, 30), gloss=0.5),
    _cards("cards-ivory-letters", (195, 225, 238), RED_BLACK, "letters"),
    _cards(
        "cards-white-suits",
        (232, 236, 238),
        RED_BLACK,
        "suits",
        font=cv2.FONT_HERSHEY_COMPLEX,
        gloss=0.45,
    ),
    _cards(
        "cards-ivory-court",
        (185, 220, 235),
        CLASSIC,
        "court",
        font=cv2.FONT_HERSHEY_TRIPLEX,
        gloss=0.5,
    ),
    _cards(
        "cards-red-white",
        (45, 40, 170),
        (WHITE,),
        "letters",
        font=cv2.FONT_HERSHEY_SIMPLEX,
        weight=1.6,
        gloss=0.55,
    ),
    _cards(
        "cards-green-italic",
        (80, 140, 50),
        _ranks(BLACK, WHITE, BLACK, WHITE, BLACK, WHITE),
        "suits",
        font=cv2.FONT_HERSHEY_DUPLEX,
        italic=True,
    ),
)

HELD_OUT_ART: tuple[DieArt, ...] = (
    _pips("pips-purple-gold", (120, 40, 90), (60, 190, 225), pip_size=0.095, gloss=0.6),
    _pips("pips-orange", (40, 120, 235), BLACK, concave=False, pip_spread=0.27, bevel=0.2),
    _cards(
        "cards-black-court",
        (40, 38, 36),
        _ranks(WHITE, RED, GOLD, RED, GOLD, WHITE),
        "court",
        font=cv2.FONT_HERSHEY_COMPLEX,
        gloss=0.6,
        shininess=260.0,
    ),
    _cards(
        "cards-yellow-script",
        (90, 215, 240),
        RED_BLACK,
        "letters",
        font=cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
        weight=1.2,
    ),
)


# --- painting one face ------------------------------------------------------------------------


def _pip_centres(value: int, spread: float) -> list[tuple[float, float]]:
    lo, mid, hi = spread, 0.5, 1.0 - spread
    layouts = {
        1: [(mid, mid)],
        2: [(lo, lo), (hi, hi)],
        3: [(lo, lo), (mid, mid), (hi, hi)],
        4: [(lo, lo), (hi, lo), (lo, hi), (hi, hi)],
        5: [(lo, lo), (hi, lo), (mid, mid), (lo, hi), (hi, hi)],
        6: [(lo, lo), (hi, lo), (lo, mid), (hi, mid), (lo, hi), (hi, hi)],
    }
    return layouts[value]


def _disc(size: int, cx: float, cy: float, r: float) -> np.ndarray:
    """Anti-aliased coverage of a disc, and its normalised radius for shading pits."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) + 0.5
    d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2)
    return np.clip(r - d + 0.5, 0.0, 1.0)


def _paint(albedo: np.ndarray, ink_mask: np.ndarray, cover: np.ndarray, colour: Colour) -> None:
    c = np.asarray(colour, np.float32) / 255.0
    albedo[:] = albedo * (1 - cover[..., None]) + c * cover[..., None]
    np.maximum(ink_mask, cover, out=ink_mask)


def _paint_pips(art: DieArt, value: int, albedo: np.ndarray, ink: np.ndarray) -> None:
    t = albedo.shape[0]
    colour = art.ink(value)
    if art.logo and value == 1:
        _paint_logo(albedo, ink)
        return
    r = art.pip_size * t
    if value == 1:
        r *= 1.35  # makers draw the lone pip bigger
    for u, v in _pip_centres(value, art.pip_spread):
        cx, cy = u * t, v * t
        cover = _disc(t, cx, cy, r)
        _paint(albedo, ink, cover, colour)
        if art.concave:
            # A drilled pit: its far wall catches light, the floor under the rim is dark.
            yy, xx = np.mgrid[0:t, 0:t].astype(np.float32) + 0.5
            rel = ((xx - cx) + (yy - cy)) / max(r, 1.0)
            shade = np.clip(0.84 + 0.14 * rel, 0.6, 1.0)
            albedo[:] = albedo * np.where(cover[..., None] > 0, shade[..., None], 1.0)


def _paint_logo(albedo: np.ndarray, ink: np.ndarray) -> None:
    """A maker's roundel: a red disc with a white five-pointed star."""
    t = albedo.shape[0]
    c = t / 2
    _paint(albedo, ink, _disc(t, c, c, 0.3 * t), RED)
    star = _star(c, c, 0.24 * t, 0.1 * t)
    cover = np.zeros((t, t), np.float32)
    cv2.fillPoly(cover, [np.round(star * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    _paint(albedo, ink, cover, WHITE)


def _star(cx: float, cy: float, r_out: float, r_in: float) -> np.ndarray:
    angles = -np.pi / 2 + np.arange(10) * np.pi / 5
    radii = np.where(np.arange(10) % 2 == 0, r_out, r_in)
    return np.stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)], axis=1)


def _poly_cover(size: int, polys: list[np.ndarray], circles: list[tuple] = ()) -> np.ndarray:
    cover = np.zeros((size, size), np.float32)
    for poly in polys:
        pts = np.round(np.asarray(poly, np.float64) * 16).astype(np.int32)
        cv2.fillPoly(cover, [pts], 1.0, cv2.LINE_AA, shift=4)
    for cx, cy, r in circles:
        np.maximum(cover, _disc(size, cx, cy, r), out=cover)
    return cover


def suit_cover(size: int, suit: str, cx: float, cy: float, r: float) -> np.ndarray:
    """Coverage of a card suit symbol (heart, diamond, spade, club) of half-height ``r``."""
    if suit == "diamond":
        poly = np.array([(cx, cy - r), (cx + 0.7 * r, cy), (cx, cy + r), (cx - 0.7 * r, cy)])
        return _poly_cover(size, [poly])
    if suit == "heart":
        lobe = 0.5 * r
        tri = np.array(
            [(cx - 0.98 * r, cy - 0.25 * r), (cx + 0.98 * r, cy - 0.25 * r), (cx, cy + r)]
        )
        return _poly_cover(
            size, [tri], [(cx - lobe, cy - 0.4 * r, lobe), (cx + lobe, cy - 0.4 * r, lobe)]
        )
    stem = np.array(
        [
            (cx - 0.12 * r, cy + 0.2 * r),
            (cx + 0.12 * r, cy + 0.2 * r),
            (cx + 0.4 * r, cy + r),
            (cx - 0.4 * r, cy + r),
        ]
    )
    if suit == "spade":
        lobe = 0.45 * r
        tri = np.array([(cx, cy - r), (cx + 0.9 * r, cy + 0.15 * r), (cx - 0.9 * r, cy + 0.15 * r)])
        return _poly_cover(
            size, [tri, stem], [(cx - lobe, cy + 0.2 * r, lobe), (cx + lobe, cy + 0.2 * r, lobe)]
        )
    lobe = 0.36 * r  # club
    return _poly_cover(
        size,
        [stem],
        [
            (cx, cy - 0.5 * r, lobe),
            (cx - 0.45 * r, cy + 0.1 * r, lobe),
            (cx + 0.45 * r, cy + 0.1 * r, lobe),
        ],
    )


def _text_cover(
    size: int, text: str, art: DieArt, box: tuple[float, float, float, float]
) -> np.ndarray:
    """Coverage of ``text`` fitted into ``box`` (x, y, w, h) in the family's font."""
    if art.typeface:
        return _typeset_cover(size, text, art, box)
    font = art.font | (cv2.FONT_ITALIC if art.italic else 0)
    x, y, w, h = box
    base_thick = max(1, round(art.weight * size / 40))
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, base_thick)
    scale = min(w / tw, h / th)
    thick = max(1, round(art.weight * scale * 2.2))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    big = np.zeros((size * 4, size * 4), np.uint8)  # draw at 4x and shrink: smooth strokes
    org = (round((x + (w - tw) / 2) * 4), round((y + (h + th) / 2) * 4))
    cv2.putText(big, text, org, font, scale * 4, 255, thick * 4, cv2.LINE_AA)
    return cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def _typeset_cover(
    size: int, text: str, art: DieArt, box: tuple[float, float, float, float]
) -> np.ndarray:
    """``_text_cover`` in a TrueType font: the text set large, its ink's bounds fitted
    into ``box`` as the Hershey text is, its strokes made bolder or lighter by ``weight``."""
    big = np.zeros((TYPESET_PX * 2, TYPESET_PX * len(text) * 2), np.uint8)
    face = _font_face(art.typeface)
    cv2.putText(
        big, text, (TYPESET_PX // 2, TYPESET_PX * 3 // 2), 255, face, TYPESET_PX, TYPESET_WEIGHT
    )
    stroke = round((art.weight - 1.0) * TYPESET_PX / 24)
    if stroke:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(stroke) + 1,) * 2)
        big = (cv2.dilate if stroke > 0 else cv2.erode)(big, disc)
    x0, y0, tw, th = cv2.boundingRect(big)
    if tw == 0 or th == 0:
        raise ValueError(f"the typeface {art.typeface!r} draws no ink for {text!r}")
    x, y, w, h = box
    scale = min(w / tw, h / th) * 4  # drawn at 4x and shrunk, as the Hershey text is
    out = np.zeros((size * 4, size * 4), np.uint8)
    gw, gh = max(1, round(tw * scale)), max(1, round(th * scale))
    glyphs = cv2.resize(big[y0 : y0 + th, x0 : x0 + tw], (gw, gh), interpolation=cv2.INTER_AREA)
    left = round((x + w / 2) * 4 - gw / 2)
    top = round((y + h / 2) * 4 - gh / 2)
    sx0, sy0 = max(0, -left), max(0, -top)
    dx0, dy0 = max(0, left), max(0, top)
    dx1, dy1 = min(size * 4, left + gw), min(size * 4, top + gh)
    if dx1 > dx0 and dy1 > dy0:
        out[dy0:dy1, dx0:dx1] = glyphs[sy0 : sy0 + dy1 - dy0, sx0 : sx0 + dx1 - dx0]
    return cv2.resize(out, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


#: The height in px ranks are set at before they are fitted to their box.
TYPESET_PX = 96
#: The weight a variable font (OpenCV 5's own sans-serif) sets ranks at: left unsaid, it is
#: whatever the last text drawn set, a Hershey text too, so a seed's photo would depend on
#: what the process drew before. 300 is the font's lightest, the weight it starts at.
TYPESET_WEIGHT = 300


@lru_cache(maxsize=64)
def _font_face(path: str) -> object:
    if not hasattr(cv2, "FontFace"):
        raise ValueError(f"OpenCV {cv2.__version__} sets no TrueType text: 5.0 or later does")
    return cv2.FontFace(path)


def _rank_box(
    art: DieArt, box: tuple[float, float, float, float], t: int
) -> tuple[float, float, float, float]:
    """The layout's rank box, resized and shifted as the family says."""
    if art.rank_scale == 1.0 and art.rank_shift == (0.0, 0.0):
        return box  # the fixed families: exactly as drawn before
    x, y, w, h = box
    cx = x + w / 2 + art.rank_shift[0] * t
    cy = y + h / 2 + art.rank_shift[1] * t
    w, h = w * art.rank_scale, h * art.rank_scale
    return (cx - w / 2, cy - h / 2, w, h)


def _paint_corner_index(art: DieArt, value: int, albedo: np.ndarray, ink: np.ndarray) -> None:
    """The rank small in the top-left corner and upside down in the bottom-right one."""
    t = albedo.shape[0]
    cover = _text_cover(t, art.ranks[value - 1], art, (0.1 * t, 0.09 * t, 0.15 * t, 0.15 * t))
    colour = art.ink(value)
    if not (art.layout == "court" and value >= 3):  # courts and the ace have their own index
        _paint(albedo, ink, cover, colour)
    _paint(albedo, ink, np.ascontiguousarray(cover[::-1, ::-1]), colour)


def _suit_for(value: int, colour: Colour) -> str:
    reddish = colour[2] > 150 and colour[1] < 120
    return ("heart", "diamond")[value % 2] if reddish else ("spade", "club")[value % 2]


def _paint_card(art: DieArt, value: int, albedo: np.ndarray, ink: np.ndarray) -> None:
    t = albedo.shape[0]
    rank = art.ranks[value - 1]
    colour = art.ink(value)
    if art.layout == PLAYING_CARD:
        _paint_playing_card(art, value, albedo, ink)
        return
    if art.corner_index:
        _paint_corner_index(art, value, albedo, ink)
    if art.layout == "letters":
        box = _rank_box(art, (0.2 * t, 0.22 * t, 0.6 * t, 0.56 * t), t)
        _paint(albedo, ink, _text_cover(t, rank, art, box), colour)
    elif art.layout == "suits" or (art.layout == "court" and value <= 2):
        box = _rank_box(art, (0.22 * t, 0.14 * t, 0.56 * t, 0.44 * t), t)
        _paint(albedo, ink, _text_cover(t, rank, art, box), colour)
        suit = _suit_for(value, colour)
        r = 0.13 * t * art.suit_scale
        cy = 0.74 * t if art.suit_scale == 1.0 else 0.87 * t - r  # a bigger suit grows upwards
        _paint(albedo, ink, suit_cover(t, suit, 0.5 * t, cy, r), colour)
    elif value == 6:  # court layout, ace: one big suit symbol with a small index
        r = 0.3 * t * art.ace_scale
        _paint(albedo, ink, suit_cover(t, art.ace_suit, 0.52 * t, 0.55 * t, r), colour)
        _paint(albedo, ink, _text_cover(t, rank, art, _index_box(art, 0.12, 0.1, 0.18, t)), colour)
    else:
        _paint_court(art, value, albedo, ink)


#: The layout of dice printed as small playing cards (``playing_card_art``).
PLAYING_CARD = "playing-card"
#: Where a playing card's suit symbols lie (x, y as shares of the face), as on the 9 and 10
#: of a pack: two columns of four, and one (9) or two (10) between them.
CARD_PIPS = {
    1: [(x, y) for x in (0.33, 0.67) for y in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.5)],
    2: [(x, y) for x in (0.33, 0.67) for y in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.3), (0.5, 0.7)],
}


def _paint_playing_card(art: DieArt, value: int, albedo: np.ndarray, ink: np.ndarray) -> None:
    """A face printed as a small playing card: the 9 and 10 show nine and ten suit symbols
    (those of the lower half upside down, as on a card), the ace one big suit, the courts
    a picture; each has its rank small over a small suit in two corners."""
    t = albedo.shape[0]
    colour = art.ink(value)
    suit = art.ace_suit if value == 6 else _suit_for(value, colour)
    corner = _text_cover(t, art.ranks[value - 1], art, _index_box(art, 0.04, 0.03, 0.13, t))
    side = 0.13 * art.court_index_scale
    small = suit_cover(t, suit, (0.04 + side / 2) * t, (0.1 + side) * t, 0.035 * t)
    corner = np.maximum(corner, small)
    _paint(albedo, ink, corner, colour)
    _paint(albedo, ink, np.ascontiguousarray(corner[::-1, ::-1]), colour)
    if value in CARD_PIPS:
        r = 0.07 * t * art.suit_scale
        for x, y in CARD_PIPS[value]:
            if y <= 0.5:
                cover = suit_cover(t, suit, x * t, y * t, r)
            else:  # suits are mirror-symmetric: flipped top to bottom is turned half round
                cover = np.ascontiguousarray(suit_cover(t, suit, x * t, (1 - y) * t, r)[::-1])
            _paint(albedo, ink, cover, colour)
    elif value == 6:
        big = suit_cover(t, suit, 0.5 * t, 0.52 * t, 0.24 * t * art.ace_scale)
        _paint(albedo, ink, big, colour)
    else:
        _paint_court(art, value, albedo, ink, index=False)


#: Headwear a court picture may wear; the fixed families put a cap on J, a tiara on Q
#: and a crown on K, random families sometimes shuffle them so the index must be read.
COURT_HATS: tuple[str, ...] = ("cap", "tiara", "crown", "bare")


def _index_box(
    art: DieArt, x: float, y: float, side: float, t: int
) -> tuple[float, float, float, float]:
    """The small rank beside a court picture or an ace, grown from its top-left corner."""
    grown = side * art.court_index_scale
    return (x * t, y * t, grown * t, grown * t)


def _hat(kind: str, cx: float, t: int) -> tuple[list[np.ndarray], list[tuple]]:
    """Polygons and circles of one headwear, sitting on a head centred at ``cx``."""
    if kind == "cap":  # a flat cap with a feather
        cap = np.array(
            [
                (cx - 0.14 * t, 0.4 * t),
                (cx + 0.14 * t, 0.4 * t),
                (cx + 0.1 * t, 0.32 * t),
                (cx - 0.1 * t, 0.32 * t),
            ]
        )
        feather = np.array(
            [(cx + 0.08 * t, 0.34 * t), (cx + 0.24 * t, 0.18 * t), (cx + 0.12 * t, 0.36 * t)]
        )
        return [cap, feather], []
    if kind == "tiara":  # a band with three pearls
        band = np.array(
            [
                (cx - 0.09 * t, 0.39 * t),
                (cx + 0.09 * t, 0.39 * t),
                (cx + 0.09 * t, 0.33 * t),
                (cx - 0.09 * t, 0.33 * t),
            ]
        )
        return [band], [(cx + dx * t, 0.31 * t, 0.03 * t) for dx in (-0.07, 0.0, 0.07)]
    if kind == "crown":  # three spikes
        crown = np.array(
            [
                (cx - 0.11 * t, 0.4 * t),
                (cx + 0.11 * t, 0.4 * t),
                (cx + 0.12 * t, 0.24 * t),
                (cx + 0.05 * t, 0.32 * t),
                (cx, 0.22 * t),
                (cx - 0.05 * t, 0.32 * t),
                (cx - 0.12 * t, 0.24 * t),
            ]
        )
        return [crown], []
    return [], []


def _paint_court(
    art: DieArt, value: int, albedo: np.ndarray, ink: np.ndarray, index: bool = True
) -> None:
    """A small court picture: robe, face, hair, headwear (and maybe a beard), and its index
    (left to the caller where ``index`` is False)."""
    t = albedo.shape[0]
    colour = art.ink(value)
    rank = art.ranks[value - 1]
    court = value - 3  # 0 jack, 1 queen, 2 king
    trim, skin, hair = art.court_colours or (GOLD, SKIN, BLACK)
    beard_colour = hair if art.court_colours else (40, 60, 90)
    cx = 0.54 * t
    robe = np.array(
        [
            (cx - 0.2 * t, 0.88 * t),
            (cx + 0.2 * t, 0.88 * t),
            (cx + 0.13 * t, 0.6 * t),
            (cx - 0.13 * t, 0.6 * t),
        ]
    )
    _paint(albedo, ink, _poly_cover(t, [robe]), colour)
    collar = np.array([(cx - 0.08 * t, 0.6 * t), (cx + 0.08 * t, 0.6 * t), (cx, 0.7 * t)])
    _paint(albedo, ink, _poly_cover(t, [collar]), trim)
    if court == 1:  # queen's long hair, under the face
        _paint(albedo, ink, _poly_cover(t, [], [(cx, 0.47 * t, 0.13 * t)]), hair)
    _paint(albedo, ink, _poly_cover(t, [], [(cx, 0.47 * t, 0.095 * t)]), skin)
    hat = art.court_hats[court]
    polys, circles = _hat(hat, cx, t)
    if polys or circles:
        plain_cap = hat == "cap" and not art.cap_in_trim
        _paint(albedo, ink, _poly_cover(t, polys, circles), colour if plain_cap else trim)
    if art.beards[court]:
        beard = np.array([(cx - 0.08 * t, 0.5 * t), (cx + 0.08 * t, 0.5 * t), (cx, 0.62 * t)])
        _paint(albedo, ink, _poly_cover(t, [beard]), beard_colour)
    if index:
        box = _index_box(art, 0.08, 0.08, 0.2, t)
        _paint(albedo, ink, _text_cover(t, rank, art, box), colour)


def _swirl(albedo: np.ndarray, colour: Colour, seed: int) -> None:
    """Marbled plastic: soft veins of a second colour along level lines of smooth noise."""
    t = albedo.shape[0]
    rng = np.random.default_rng(seed)
    small = rng.standard_normal((4, 4)).astype(np.float32)
    field = cv2.resize(small, (t, t), interpolation=cv2.INTER_CUBIC)
    veins = np.exp(-(np.sin(field * 2.5) ** 2) / 0.12)
    mix = cv2.GaussianBlur(veins, (0, 0), t / 40) * 0.75
    c = np.asarray(colour, np.float32) / 255.0
    albedo[:] = albedo * (1 - mix[..., None]) + c * mix[..., None]


@lru_cache(maxsize=512)
def face_art(art: DieArt, value: int, size: int = TEXELS) -> tuple[np.ndarray, np.ndarray]:
    """One face painted flat: albedo (size, size, 3) BGR sRGB 0..1 and the ink mask 0..1.

    The arrays are cached and shared: treat them as read-only.
    """
    albedo = np.empty((size, size, 3), np.float32)
    albedo[:] = np.asarray(art.body, np.float32) / 255.0
    if art.marble is not None:
        _swirl(albedo, art.marble, seed=value)
    ink = np.zeros((size, size), np.float32)
    if art.face == "pips":
        _paint_pips(art, value, albedo, ink)
    else:
        _paint_card(art, value, albedo, ink)
    albedo.setflags(write=False)
    ink.setflags(write=False)
    return albedo, ink


# --- random families, for training -------------------------------------------------------------

#: Fonts a random family may print its ranks in. ``FONT_HERSHEY_SCRIPT_COMPLEX`` is left out:
#: it is a held-out family's font. The thin script is allowed, but rarely drawn.
RANDOM_FONTS: tuple[tuple[int, float], ...] = (
    (cv2.FONT_HERSHEY_SIMPLEX, 1.0),
    (cv2.FONT_HERSHEY_PLAIN, 0.7),
    (cv2.FONT_HERSHEY_DUPLEX, 1.0),
    (cv2.FONT_HERSHEY_COMPLEX, 1.0),
    (cv2.FONT_HERSHEY_TRIPLEX, 1.0),
    (cv2.FONT_HERSHEY_COMPLEX_SMALL, 0.8),
    (cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 0.25),
)
#: TrueType fonts a random family may set its ranks in (``typefaces``): the fonts that ship
#: with matplotlib (DejaVu: Bitstream Vera license; STIX: SIL OFL 1.1; Computer Modern:
#: Knuth's free license as BaKoMa's TrueType). The monospaced ones are left out: a
#: monospaced alphabet is a held-out family of the 3D renders (``vision_models/render3d``).
TYPESET_FONTS: tuple[str, ...] = (
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSans-Oblique.ttf",
    "DejaVuSans-BoldOblique.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSerif-Italic.ttf",
    "DejaVuSerif-BoldItalic.ttf",
    "STIXGeneral.ttf",
    "STIXGeneralBol.ttf",
    "STIXGeneralItalic.ttf",
    "STIXGeneralBolIta.ttf",
    "cmr10.ttf",
    "cmb10.ttf",
    "cmss10.ttf",
    "cmti10.ttf",
    "cmmi10.ttf",
)


#: The :data:`TYPESET_FONTS` that carry Cyrillic capitals (Computer Modern has none).
CYRILLIC_TYPESET: frozenset[str] = frozenset(
    name for name in TYPESET_FONTS if name.startswith(("DejaVu", "STIXGeneral"))
)
#: The share of random families set in a :data:`CYRILLIC_TYPESET` font that print
#: :data:`~scorer.dice.CYRILLIC_RANKS`, as Russian and Ukrainian poker dice do.
CYRILLIC_SHARE = 0.5


def typefaces() -> tuple[str, ...]:
    """Paths of :data:`TYPESET_FONTS` where matplotlib is installed (training only),
    else none: the Pi never sets type, training does (``scorer.render.RANDOM_TYPESET``)."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations or not hasattr(cv2, "FontFace"):
        return ()
    folder = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"
    found = tuple(str(folder / name) for name in TYPESET_FONTS if (folder / name).is_file())
    return found if len(found) == len(TYPESET_FONTS) else ()


#: Ink that contrasts this little with the body (CIE76 colour difference) is replaced, and
#: so is ink of too like a lightness (Lab L, 0..100): makers print to be read in any light.
MIN_INK_CONTRAST = 45.0
MIN_INK_LIGHTNESS_GAP = 20.0


def _lab(colour: Colour) -> np.ndarray:
    pixel = np.asarray(colour, np.float32).reshape(1, 1, 3) / 255.0
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2Lab).reshape(3)


def ink_contrast(ink: Colour, body: Colour) -> float:
    """How far apart two paints look (CIE76 difference in Lab, 0..~150)."""
    return float(np.linalg.norm(_lab(ink) - _lab(body)))


def lightness_gap(ink: Colour, body: Colour) -> float:
    """How much lighter or darker one paint is than the other (Lab L, 0..100)."""
    return float(abs(_lab(ink)[0] - _lab(body)[0]))


def _hsv(h: float, s: float, v: float) -> Colour:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, s, v)
    return (round(b * 255), round(g * 255), round(r * 255))


def _random_body(rng: np.random.Generator) -> Colour:
    """Ivory, white, black, saturated or pale plastic, hues drawn evenly."""
    kind = rng.choice(
        ("ivory", "white", "black", "saturated", "pale"), p=(0.15, 0.1, 0.12, 0.4, 0.23)
    )
    hue = rng.random()
    if kind == "ivory":
        return _hsv(rng.uniform(0.08, 0.16), rng.uniform(0.08, 0.25), rng.uniform(0.8, 0.95))
    if kind == "white":
        return _hsv(hue, rng.uniform(0.0, 0.04), rng.uniform(0.86, 0.96))
    if kind == "black":
        return _hsv(hue, rng.uniform(0.0, 0.3), rng.uniform(0.08, 0.2))
    if kind == "saturated":
        return _hsv(hue, rng.uniform(0.55, 1.0), rng.uniform(0.4, 0.95))
    return _hsv(hue, rng.uniform(0.12, 0.4), rng.uniform(0.78, 0.96))


def _jitter(rng: np.random.Generator, colour: Colour, spread: float = 12.0) -> Colour:
    c = np.clip(np.asarray(colour, float) + rng.normal(0, spread, 3), 0, 250)
    return (int(c[0]), int(c[1]), int(c[2]))


def _legible(ink: Colour, body: Colour) -> Colour:
    """``ink`` if it stands out from ``body``, else whichever of black and white does more."""
    if (
        ink_contrast(ink, body) >= MIN_INK_CONTRAST
        and lightness_gap(ink, body) >= MIN_INK_LIGHTNESS_GAP
    ):
        return ink
    return max((BLACK, WHITE), key=lambda c: lightness_gap(c, body))


def _random_ink(rng: np.random.Generator) -> Colour:
    palette = (BLACK, WHITE, RED, BLUE, GOLD, (40, 120, 30))
    if rng.random() < 0.7:
        return _jitter(rng, palette[rng.integers(len(palette))])
    return _hsv(rng.random(), rng.uniform(0.5, 1.0), rng.uniform(0.2, 1.0))


def _random_inks(rng: np.random.Generator, body: Colour, face: str) -> tuple[Colour, ...]:
    """Six inks, one per value: card-style red and black, one ink, classic, or any."""
    if face == "card":
        scheme = ("red-black", "one", "classic", "each")[rng.integers(4)]
    else:
        scheme = rng.choice(("one", "one-four", "each"), p=(0.8, 0.1, 0.1))
    dark, red = _jitter(rng, BLACK, 6), _jitter(rng, RED)
    if scheme == "red-black":
        first = int(rng.integers(2))
        inks = tuple((dark, red)[(v + first) % 2] for v in range(6))
    elif scheme == "classic":
        inks = (dark, dark, _jitter(rng, BLUE), red, red, dark)
    elif scheme == "each":
        inks = tuple(_random_ink(rng) for _ in range(6))
    elif scheme == "one-four":  # Chinese-style dice: the one and the four red
        one = _random_ink(rng)
        inks = (red, one, one, red, one, one)
    else:
        inks = (_random_ink(rng),) * 6
    return tuple(_legible(ink, body) for ink in inks)


def random_art(rng: np.random.Generator, face: str, fonts_from: Sequence[str] = ()) -> DieArt:
    """A make of dice never seen before: colours, font, layout and finish all drawn at random.

    ``face`` is ``"pips"`` or ``"card"``. Every ink stands out from the body by at least
    :data:`MIN_INK_CONTRAST`, and no card is printed in the held-out script font. Given
    TrueType fonts (``typefaces``), a card family sets its ranks in one of them: the
    Hershey fonts alone are seven shapes of a rank, and a reader learns their shapes.
    Half the families set in a font with Cyrillic capitals print the Cyrillic ranks.
    """
    if face not in ("pips", "card"):
        raise ValueError(f"face must be 'pips' or 'card', not {face!r}")
    body = _random_body(rng)
    inks = _random_inks(rng, body, face)
    finish = {
        "gloss": float(rng.uniform(0.2, 0.65)),
        "shininess": float(rng.uniform(100.0, 320.0)),
        "bevel": float(rng.uniform(0.1, 0.2)),
        "marble": _jitter(rng, body, 45.0) if rng.random() < 0.1 else None,
    }
    if face == "pips":
        size = float(rng.uniform(0.075, 0.105))
        return DieArt(
            name="random-pips",
            face="pips",
            body=body,
            inks=inks,
            pip_size=size,
            pip_spread=float(rng.uniform(max(0.22, size + 0.13), 0.28)),
            concave=bool(rng.random() < 0.7),
            logo=bool(rng.random() < 0.12),
            **finish,  # type: ignore[arg-type]
        )
    fonts, weights = zip(*RANDOM_FONTS, strict=True)
    p = np.asarray(weights) / sum(weights)
    trims = [c for c in (GOLD, *inks, _random_ink(rng)) if ink_contrast(c, body) >= 25]
    # gold hats on every court half the time: a hat's colour must not tell J from K
    gold = GOLD in trims and rng.random() < 0.5
    hats = ("cap", "tiara", "crown")
    if rng.random() < 0.4:  # other makers draw other courts: then only the index tells
        hats = tuple(str(h) for h in rng.choice(COURT_HATS, size=3))
    hair = inks[rng.integers(6)] if rng.random() < 0.75 else body  # hair lost in the body
    art = DieArt(
        name="random-card",
        face="card",
        body=body,
        inks=inks,
        layout=str(rng.choice(("letters", "suits", "court"), p=(0.3, 0.3, 0.4))),
        font=int(rng.choice(fonts, p=p)),
        italic=bool(rng.random() < 0.25),
        weight=float(rng.uniform(0.8, 1.8)),
        rank_scale=float(rng.uniform(0.82, 1.08)),
        rank_shift=(float(rng.uniform(-0.035, 0.035)), float(rng.uniform(-0.03, 0.03))),
        corner_index=bool(rng.random() < 0.3),
        suit_scale=float(rng.uniform(0.75, 1.25)),
        court_colours=(
            GOLD if gold or not trims else trims[rng.integers(len(trims))],
            SKIN if rng.random() < 0.6 else _random_ink(rng),
            hair,
        ),
        cap_in_trim=bool(rng.random() < 0.5),
        court_hats=hats,  # type: ignore[arg-type]
        beards=(bool(rng.random() < 0.15), False, bool(rng.random() < 0.8)),
        court_index_scale=float(rng.uniform(0.85, 1.6)),
        ace_suit=str(rng.choice(("spade", "spade", "heart", "club", "diamond"))),
        ace_scale=float(rng.uniform(0.75, 1.15)),
        # drawn last, and only given fonts: the Hershey families' stream stays as it was
        typeface=str(fonts_from[rng.integers(len(fonts_from))]) if fonts_from else "",
        **finish,  # type: ignore[arg-type]
    )
    if Path(art.typeface).name in CYRILLIC_TYPESET and rng.random() < CYRILLIC_SHARE:
        return dataclasses.replace(art, ranks=CYRILLIC_RANKS)
    return art


def playing_card_art(rng: np.random.Generator, fonts_from: Sequence[str] = ()) -> DieArt:
    """A make of poker dice never seen before, printed as small playing cards: the colours,
    font, courts and finish of ``random_art`` (the same draws), its layout
    :data:`PLAYING_CARD`. Many poker dice are printed so: their 9 and 10 show no big rank,
    only nine or ten suit symbols and two small corner indices."""
    return as_playing_cards(random_art(rng, "card", fonts_from))


def as_playing_cards(art: DieArt) -> DieArt:
    """A random make of poker dice (``random_art``) printed as small playing cards."""
    return dataclasses.replace(art, name="random-playing-card", layout=PLAYING_CARD)

"""The art printed on rendered dice: pip faces and poker-dice card faces, by family.

A family is one make of dice (body colour, ink, pip shape, font, suits, court
pictures, gloss). :func:`face_art` paints one face flat, as a square texture, with
a mask of where ink lies; the scene in :mod:`scorer.vision.synth` lights it and
bends it onto a cube. Textures are cached: a throw reuses the same few faces.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from scorer.dice import CARD_RANKS

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

    ``face`` is ``"pips"`` or ``"card"``. Card families pick one of three layouts:
    ``"letters"`` (the rank alone), ``"suits"`` (rank over a suit symbol) or
    ``"court"`` (court pictures on J, Q, K, a big spade on A, suits on 9 and 10).
    ``inks`` gives the colour of each value's ink (pip dice use one ink for all).
    """

    name: str
    face: str
    body: Colour
    inks: tuple[Colour, ...]
    layout: str = "pips"
    font: int = cv2.FONT_HERSHEY_DUPLEX
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


def _suit_for(value: int, colour: Colour) -> str:
    reddish = colour[2] > 150 and colour[1] < 120
    return ("heart", "diamond")[value % 2] if reddish else ("spade", "club")[value % 2]


def _paint_card(art: DieArt, value: int, albedo: np.ndarray, ink: np.ndarray) -> None:
    t = albedo.shape[0]
    rank = CARD_RANKS[value - 1]
    colour = art.ink(value)
    if art.layout == "letters":
        _paint(
            albedo, ink, _text_cover(t, rank, art, (0.2 * t, 0.22 * t, 0.6 * t, 0.56 * t)), colour
        )
    elif art.layout == "suits" or (art.layout == "court" and value <= 2):
        _paint(
            albedo, ink, _text_cover(t, rank, art, (0.22 * t, 0.14 * t, 0.56 * t, 0.44 * t)), colour
        )
        suit = _suit_for(value, colour)
        _paint(albedo, ink, suit_cover(t, suit, 0.5 * t, 0.74 * t, 0.13 * t), colour)
    elif value == 6:  # court layout, ace: one big spade with a small index
        _paint(albedo, ink, suit_cover(t, "spade", 0.52 * t, 0.55 * t, 0.3 * t), colour)
        _paint(
            albedo, ink, _text_cover(t, rank, art, (0.12 * t, 0.1 * t, 0.18 * t, 0.18 * t)), colour
        )
    else:
        _paint_court(art, value, albedo, ink)


def _paint_court(art: DieArt, value: int, albedo: np.ndarray, ink: np.ndarray) -> None:
    """A small court picture: a jack's cap, a queen's tiara and hair, a king's crown and beard."""
    t = albedo.shape[0]
    colour = art.ink(value)
    rank = CARD_RANKS[value - 1]
    cx = 0.54 * t
    # the robe
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
    _paint(albedo, ink, _poly_cover(t, [collar]), GOLD)
    if value == 4:  # queen's long hair, under the face
        _paint(albedo, ink, _poly_cover(t, [], [(cx, 0.47 * t, 0.13 * t)]), BLACK)
    _paint(albedo, ink, _poly_cover(t, [], [(cx, 0.47 * t, 0.095 * t)]), SKIN)
    if value == 3:  # jack: a flat cap with a feather
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
        _paint(albedo, ink, _poly_cover(t, [cap, feather]), colour)
    elif value == 4:  # queen: a rounded tiara
        band = np.array(
            [
                (cx - 0.09 * t, 0.39 * t),
                (cx + 0.09 * t, 0.39 * t),
                (cx + 0.09 * t, 0.33 * t),
                (cx - 0.09 * t, 0.33 * t),
            ]
        )
        dots = [(cx + dx * t, 0.31 * t, 0.03 * t) for dx in (-0.07, 0.0, 0.07)]
        _paint(albedo, ink, _poly_cover(t, [band], dots), GOLD)
    else:  # king: a spiked crown and a beard
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
        _paint(albedo, ink, _poly_cover(t, [crown]), GOLD)
        beard = np.array([(cx - 0.08 * t, 0.5 * t), (cx + 0.08 * t, 0.5 * t), (cx, 0.62 * t)])
        _paint(albedo, ink, _poly_cover(t, [beard]), (40, 60, 90))
    _paint(albedo, ink, _text_cover(t, rank, art, (0.08 * t, 0.08 * t, 0.2 * t, 0.2 * t)), colour)


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

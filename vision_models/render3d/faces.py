"""The six printed faces of one make of dice, painted flat into a texture atlas.

The atlas holds the faces in a 3x2 grid (value 1..3 on the top row); Blender maps each
face of the die's mesh onto its cell (:func:`cell_uv`). Two images come out: the ink
(colour and coverage, RGBA) and the relief (1 = the surface, 0 = the floor of a drilled
pip), so that the body's own material (marbled, translucent, wood) shows wherever
no ink lies. Card faces come from the project's own face art
(:mod:`scorer.render.art`) or from glyphs of fonts that ship with Blender, which
the caller turns into triangles (:data:`Glyphs`), so this module needs no Blender.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from scorer.dice import CARD_RANKS, CYRILLIC_RANKS, PIP_LAYOUT
from scorer.render import art as project_art
from vision_models.render3d.looks import PLAIN_ART, Colour, DieLook

CELL = 256  # texels a face; a 25 mm die close up at 12 MP is about 250 px wide
SUPER = 4  # polygons are filled at 4x and shrunk: smooth edges without seams
#: (font key, text) -> triangles (n, 3, 2), x right and y up, fitted into the unit square
Glyphs = Callable[[str, str], np.ndarray]

SUITS = ("spade", "heart", "club", "diamond")
#: Fonts of the card art families (keys the caller's :data:`Glyphs` knows).
FONTS = {"fonts": ("inter", "cjk", "math-bold", "math-fraktur", "math-double", "math-sans")}
HELD_OUT_FONTS = ("mono", "math-mono", "math-script")
#: The fonts among those with Cyrillic capitals, for makes printing 9 10 В Д К Т.
CYRILLIC_FONTS = frozenset({"inter", "cjk", "mono"})
#: Court pictures: glyphs drawn on the jack, queen and king.
COURTS = {
    "chess": ("\u265e", "\u265b", "\u265a"),
    "emoji": ("\U0001f482", "\U0001f478", "\U0001f451"),
}
#: Pictures a make of the train families draws on its courts, three of them in any order
#: (VERSION 2): a picture that always names its court teaches a network the picture, and
#: players' dice draw courts it never saw; the corner index is then the one sure sign.
PICTURES = tuple("\u2654\u2655\u2656\u2657\u2658\u2659\u265a\u265b\u265c\u265d\u265e\u265f")
PICTURES += tuple("\u2600\u2602\u2618\u273f\u2740\u2708\u260e\u231b\u263c")
#: Card art families whose courts draw from :data:`PICTURES` (the train ones).
FREE_PICTURES = frozenset({"chess", "fonts"})
#: The share of the project's random card makes printed as small playing cards (VERSION 3:
#: ``scorer.render.art.playing_card_art``).
PLAYING_CARDS = 0.3


def cell_uv(value: int, uv: np.ndarray) -> np.ndarray:
    """Where a face's own UVs (0..1, v up) land in the atlas of its make."""
    col, row = (value - 1) % 3, (value - 1) // 3
    return np.stack([(col + uv[..., 0]) / 3, (1 - row + uv[..., 1]) / 2], axis=-1)


def _fill(triangles: list[np.ndarray], size: int = CELL) -> np.ndarray:
    """Coverage (0..1) of polygons given in face units (0..1, x right, y down)."""
    big = np.zeros((size * SUPER, size * SUPER), np.uint8)
    polys = [np.round(np.asarray(p) * size * SUPER).astype(np.int32) for p in triangles if len(p)]
    if polys:
        cv2.fillPoly(big, polys, 255)
    return cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def _disc(cx: float, cy: float, r: float) -> np.ndarray:
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    return np.stack([cx + r * np.cos(angles), cy + r * np.sin(angles)], axis=1)


def _square(cx: float, cy: float, r: float, rounding: float = 0.25) -> np.ndarray:
    """A square pip with rounded corners (``rounding`` of its half side)."""
    k = r * (1 - rounding)
    pts = []
    for qx, qy, a0 in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        for a in np.radians(np.linspace(a0, a0 + 90, 6)):
            pts.append(
                (cx + qx * k + r * rounding * np.cos(a), cy + qy * k + r * rounding * np.sin(a))
            )
    return np.array(pts)


def _star(cx: float, cy: float, r_out: float, r_in: float, points: int = 5) -> np.ndarray:
    angles = -np.pi / 2 + np.arange(2 * points) * np.pi / points
    radii = np.where(np.arange(2 * points) % 2 == 0, r_out, r_in)
    return np.stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)], axis=1)


def _emblem(kind: str) -> tuple[np.ndarray, np.ndarray]:
    """A maker's emblem in place of a face: (main coverage, accent coverage)."""
    if kind == "ring":
        ring = np.clip(_fill([_disc(0.5, 0.5, 0.33)]) - _fill([_disc(0.5, 0.5, 0.25)]), 0, 1)
        letters = [_square(0.5 + dx, 0.5, 0.045, 0.1) for dx in (-0.12, 0.0, 0.12)]
        return ring, _fill(letters)
    if kind == "star":
        return _fill([_disc(0.5, 0.5, 0.3)]), _fill([_star(0.5, 0.5, 0.24, 0.1)])
    if kind == "shield":
        shield = np.array([(0.25, 0.22), (0.75, 0.22), (0.75, 0.5), (0.5, 0.8), (0.25, 0.5)])
        stripe = np.array([(0.45, 0.22), (0.55, 0.22), (0.55, 0.72), (0.5, 0.8), (0.45, 0.72)])
        return _fill([shield]), _fill([stripe])
    if kind == "sun":
        rays = _star(0.5, 0.5, 0.36, 0.22, points=12)
        return _fill([rays]), _fill([_disc(0.5, 0.5, 0.14)])
    raise ValueError(f"unknown emblem {kind!r}")


def pip_face(
    look: DieLook, value: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One pip face: ink RGB (sRGB 0..1), ink coverage and relief (1 surface, 0 pit floor)."""
    rgb = np.empty((CELL, CELL, 3), np.float32)
    rgb[:] = look.ink
    relief = np.ones((CELL, CELL), np.float32)
    if look.emblem != "none" and value == look.emblem_on:
        main, accent = _emblem(look.emblem)
        rgb[:] = look.one_ink if look.one_ink != look.ink else look.ink
        rgb[accent > 0.5] = look.colour if look.one_ink != look.ink else look.one_ink
        cover = np.maximum(main, accent)
        if look.pips != "round":
            relief -= 0.5 * cover
        return rgb, cover, relief
    size = rng.uniform(0.075, 0.105)
    offset = 0.5 - rng.uniform(0.24, 0.29)  # corner pips from the middle
    r = size * (0.8 if look.pips == "square" else 1.4 if value == 1 else 1.0)
    shape = _square if look.pips == "square" else _disc
    polys = [shape(0.5 + offset * dx, 0.5 + offset * dy, r) for dx, dy in PIP_LAYOUT[value]]
    cover = _fill(polys)
    if value == 1 or (value == 4 and look.one_ink != look.ink):
        rgb[:] = look.one_ink
    if look.pips in ("drilled", "engraved", "square"):
        # a pit: deeper towards its middle for drilled pips, flat-floored when engraved
        soft = cv2.GaussianBlur(
            cover, (0, 0), CELL * r * (0.35 if look.pips == "drilled" else 0.08)
        )
        relief -= np.clip(soft * 1.2, 0, 1) * cover
    if look.pips == "engraved" and rng.random() < 0.3:  # unpainted: the pit only, a bit darker
        rgb[:] = np.asarray(look.colour, np.float32) * 0.6
    return rgb, cover, relief


def _project_card(look: DieLook, value: int) -> tuple[np.ndarray, np.ndarray, Colour]:
    rng = np.random.default_rng(look.art_seed)
    if look.card_art == "project-held-out":
        families = [a for a in project_art.HELD_OUT_ART if a.face == "card"]
        art = families[look.art_seed % len(families)]
    elif rng.random() < 0.3:
        families = [a for a in project_art.TRAIN_ART if a.face == "card"]
        art = families[look.art_seed % len(families)]
    else:
        art = project_art.random_art(rng, "card")
        if look.version >= 3 and rng.random() < PLAYING_CARDS:  # drawn last: v2's art kept
            art = project_art.as_playing_cards(art)
    albedo, ink = project_art.face_art(art, value, CELL)
    body = tuple(float(c) / 255 for c in art.body[::-1])
    return np.ascontiguousarray(albedo[..., ::-1]), np.array(ink), body  # type: ignore[return-value]


def _place(tris: np.ndarray, box: tuple[float, float, float, float]) -> list[np.ndarray]:
    """Glyph triangles (any units, y up) fitted, unstretched and centred, into a box
    (x, y, w, h) of the face (units of the face, y down)."""
    if len(tris) == 0:
        return []
    x, y, w, h = box
    lo, hi = tris.reshape(-1, 2).min(axis=0), tris.reshape(-1, 2).max(axis=0)
    size = np.maximum(hi - lo, 1e-9)
    k = min(w / size[0], h / size[1])
    out = np.empty_like(tris)
    out[..., 0] = x + (w - k * size[0]) / 2 + (tris[..., 0] - lo[0]) * k
    out[..., 1] = y + (h - k * size[1]) / 2 + (hi[1] - tris[..., 1]) * k
    return list(out)


def _suit(kind: str, cx: float, cy: float, r: float) -> np.ndarray:
    return project_art.suit_cover(CELL, kind, cx * CELL, cy * CELL, r * CELL)


def glyph_card(look: DieLook, value: int, glyphs: Glyphs) -> tuple[np.ndarray, np.ndarray]:
    """A card face printed in a Blender font: the rank alone, rank over suit, or a court
    picture with a corner index. Red ranks (10, Q, A by default) take ``one_ink``."""
    rng = np.random.default_rng(look.art_seed)
    fonts = HELD_OUT_FONTS if look.card_art == "mono" else FONTS["fonts"]
    if look.cyrillic:
        fonts = tuple(f for f in fonts if f in CYRILLIC_FONTS)
    font = fonts[int(rng.integers(len(fonts)))]
    free = look.version >= 2 and look.card_art in FREE_PICTURES
    layouts = ("rank", "suit", "corner", "court") if free else ("rank", "suit", "corner")
    layout = "court" if look.card_art in COURTS else str(rng.choice(layouts))
    if look.card_art == PLAIN_ART:
        font, layout = "inter", "rank"
    suit_of = [str(s) for s in rng.permutation(SUITS)]
    red = value in (2, 4, 6) if rng.random() < 0.7 else False
    rank = (CYRILLIC_RANKS if look.cyrillic else CARD_RANKS)[value - 1]
    cover = np.zeros((CELL, CELL), np.float32)
    scale = rng.uniform(0.85, 1.1)
    if free:
        pictures = [PICTURES[i] for i in rng.choice(len(PICTURES), 3, replace=False)]
        index, both_corners = float(rng.uniform(0.16, 0.26)), bool(rng.random() < 0.5)
    else:
        pictures = list(COURTS.get(look.card_art, ()))
        index, both_corners = 0.16, False
    if layout == "court" and value in (3, 4, 5):
        pic = glyphs("emoji" if look.card_art == "emoji" else "symbols", pictures[value - 3])
        cover = np.maximum(cover, _fill(_place(pic, (0.24, 0.22, 0.6 * scale, 0.6 * scale))))
        corner = _place(glyphs(font, rank), (0.1, 0.08, index, index * 1.12 if free else 0.18))
        if both_corners:
            corner += [1 - t for t in corner]  # the second index, upside down
        cover = np.maximum(cover, _fill(corner))
    elif layout in ("rank", "court"):
        w = (0.62 if len(rank) == 2 else 0.46) * scale
        cover = _fill(_place(glyphs(font, rank), (0.5 - w / 2, 0.5 - 0.3 * scale, w, 0.6 * scale)))
    elif layout == "suit":
        w = (0.5 if len(rank) == 2 else 0.36) * scale
        cover = _fill(_place(glyphs(font, rank), (0.5 - w / 2, 0.12, w, 0.44 * scale)))
        cover = np.maximum(cover, _suit(suit_of[value % 4], 0.5, 0.74, 0.13))
    else:
        cover = _suit(suit_of[value % 4], 0.5, 0.52, 0.26 * scale)
        for x, y in ((0.1, 0.07), (0.72, 0.71)):
            w = 0.2 if len(rank) == 2 else 0.13
            cover = np.maximum(cover, _fill(_place(glyphs(font, rank), (x, y, w, 0.2))))
    rgb = np.empty((CELL, CELL, 3), np.float32)
    rgb[:] = look.one_ink if red and look.one_ink != look.ink else look.ink
    return rgb, cover


def atlas(look: DieLook, glyphs: Glyphs | None, seed: int) -> tuple[np.ndarray, np.ndarray, Colour]:
    """The make's atlas: ink RGBA (H, W, 4) sRGB, relief (H, W), and the body colour
    (the project's art brings its own; every other make keeps ``look.colour``)."""
    ink = np.zeros((2 * CELL, 3 * CELL, 4), np.float32)
    relief = np.ones((2 * CELL, 3 * CELL), np.float32)
    body = look.colour
    rng = np.random.default_rng(seed)
    for value in range(1, 7):
        col, row = (value - 1) % 3, (value - 1) // 3
        cell = (slice(row * CELL, (row + 1) * CELL), slice(col * CELL, (col + 1) * CELL))
        if look.face == "pips":
            rgb, cover, rel = pip_face(look, value, rng)
            relief[cell] = rel
        elif look.card_art.startswith("project"):
            rgb, cover, body = _project_card(look, value)
        else:
            if glyphs is None:
                raise ValueError(f"card art {look.card_art!r} needs font glyphs")
            rgb, cover = glyph_card(look, value, glyphs)
        ink[cell] = np.dstack([rgb, cover])
    return ink, relief, body

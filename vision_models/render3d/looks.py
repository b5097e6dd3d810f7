"""What one rendered throw shows, drawn at random: the plan of a scene, with no Blender in it.

Every axis the reader must not depend on is drawn afresh for each photo: the dice's
bodies, pips and card art, their size, the tray or floor, the lights, the camera and
its lens, blur, and clutter beside the dice. Whole families of each axis are kept out
of training (:data:`HELD_OUT`): the ``test`` split draws at least one held-out family per
photo, so a reader can be measured on dice, art and trays it never saw.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, replace

import numpy as np

from vision_models.render3d.dataset import VERSION

Colour = tuple[float, float, float]  # sRGB, 0..1

BODIES = ("opaque", "translucent", "marbled", "swirled", "pearl", "metallic", "wood")
PIPS = ("round", "drilled", "engraved", "square")
EMBLEMS = ("none", "ring", "star", "shield", "sun")
CARD_ART = ("project", "fonts", "chess", "project-held-out", "mono", "emoji")
TRAYS = ("felt", "wood", "cardboard", "boardgame", "leather", "cloth")
CLUTTER = ("coin", "token", "meeple", "card")
KINDS = ("pips", "cards", "mixed")

#: Families a training photo never shows; the ``test`` split always shows one at least.
HELD_OUT: dict[str, frozenset[str]] = {
    "body": frozenset({"pearl", "wood"}),
    "pips": frozenset({"square"}),
    "emblem": frozenset({"sun"}),
    "card_art": frozenset({"project-held-out", "mono", "emoji"}),
    "tray": frozenset({"leather", "cloth"}),
}
SPLITS = ("train", "test")
#: A die's side in millimetres: from mini dice to big casino-style ones.
SIDE_MM = (12.0, 25.0)
#: Camera sensors as (width, height) in pixels, from 720p webcams to 12 MP phones.
SENSORS = ((1280, 720), (1920, 1080), (2592, 1944), (3264, 2448), (4000, 3000))


@dataclass(frozen=True)
class DieLook:
    """One make of dice: its body, its face kind and the art printed on it."""

    face: str  # "pips" or "card"
    body: str
    colour: Colour
    second: Colour  # the marbling, swirl or grain colour (unused by plain bodies)
    roughness: float
    bevel: float  # rounded rim, fraction of the half side
    pips: str  # pip style ("round" .. "square"); card dice: "round"
    emblem: str  # a maker's emblem instead of the one or the six ("none" for cards)
    emblem_on: int  # 1 or 6
    ink: Colour
    one_ink: Colour  # the one (Chinese-style red) or a card's second ink (red ranks)
    card_art: str  # card dice only; "" for pips
    art_seed: int  # seeds the card art's random choices (font, layout, courts)
    cyrillic: bool = False  # card dice printing 9 10 В Д К Т (Russian, Ukrainian)
    version: int = VERSION  # the renderer's look (1: a court's picture names the court)
    #: a translucent body drawn as clear plastic coloured through, whatever the version
    #: (from version 4 every translucent body is): the smoky twins of older looks' throws
    glass: bool = False


@dataclass(frozen=True)
class LightPlan:
    kind: str  # "sun" (hard), "area" (soft), "point"
    kelvin: float
    power: float  # relative; the scene scales it
    azimuth: float  # radians
    elevation: float  # radians above the floor
    size: float  # softness: angular size of a sun, side of an area light (cm)
    glare: bool  # placed to mirror into the camera off the dice tops


@dataclass(frozen=True)
class CameraPlan:
    tilt_deg: float  # 0 straight down .. 45
    lens_mm: float  # full-frame equivalent focal length
    sensor: tuple[int, int]
    azimuth: float
    roll: float
    fstop: float  # depth of field; larger is sharper
    shake_px: float  # motion blur length on the full-size photo
    noise: float  # sensor noise sigma (0..255 scale)
    jpeg: int
    reach_cm: float = 0.0  # a table's fixed camera frames this far round the tray's centre
    # (0: it frames the thrown dice, wherever they lie)


@dataclass(frozen=True)
class ScenePlan:
    """Everything random about one photo, so it can be rebuilt from its seed alone."""

    seed: int
    split: str
    kind: str
    dice: tuple[DieLook, ...]  # one per die
    side_mm: tuple[float, ...]
    tray: str
    tray_colour: Colour
    lights: tuple[LightPlan, ...]
    camera: CameraPlan
    clutter: tuple[str, ...]
    tray_cm: float = 0.0  # the tray's half side (0: sized to the dice thrown)


def _choice(rng: np.random.Generator, options: tuple[str, ...] | list[str]) -> str:
    return str(options[int(rng.integers(len(options)))])


def allowed(axis: str, options: tuple[str, ...], split: str) -> tuple[str, ...]:
    """The families of one axis a split may draw from (``train`` never sees held-out ones)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    if split == "train":
        return tuple(o for o in options if o not in HELD_OUT[axis])
    return options


def _hsv(h: float, s: float, v: float) -> Colour:
    return colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))


def _luma(c: Colour) -> float:
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def body_colour(rng: np.random.Generator, body: str) -> tuple[Colour, Colour]:
    """A body colour and its second colour (veins, swirl, grain) for one body family."""
    h = float(rng.random())
    if body == "wood":
        base = _hsv(
            0.07 + 0.03 * rng.random(), 0.45 + 0.3 * rng.random(), 0.35 + 0.45 * rng.random()
        )
        return base, tuple(c * 0.55 for c in base)  # type: ignore[return-value]
    if body == "pearl":
        base = _hsv(h, 0.1 + 0.35 * rng.random(), 0.75 + 0.2 * rng.random())
        return base, _hsv(h + 0.1 + 0.2 * rng.random(), 0.2, 0.95)
    kind = _choice(rng, ("white", "ivory", "black", "saturated", "saturated", "pale"))
    if kind == "white":
        base = _hsv(h, 0.03, 0.9 + 0.08 * rng.random())
    elif kind == "ivory":
        base = _hsv(0.1 + 0.04 * rng.random(), 0.15 + 0.15 * rng.random(), 0.85)
    elif kind == "black":
        base = _hsv(h, 0.2 * rng.random(), 0.06 + 0.1 * rng.random())
    elif kind == "pale":
        base = _hsv(h, 0.25 + 0.2 * rng.random(), 0.85)
    else:
        base = _hsv(h, 0.6 + 0.4 * rng.random(), 0.35 + 0.6 * rng.random())
    second = _hsv(h + rng.uniform(-0.15, 0.15), rng.uniform(0.0, 0.8), rng.uniform(0.1, 1.0))
    if rng.random() < 0.4:
        second = (0.95, 0.95, 0.93) if _luma(base) < 0.5 else (0.1, 0.1, 0.12)
    return base, second


def ink_colour(rng: np.random.Generator, body: Colour) -> Colour:
    """Ink that stands out from the body: white or black mostly, a bright paint sometimes."""
    dark = _luma(body) > 0.45
    if rng.random() < 0.3:
        for _ in range(10):
            c = _hsv(rng.random(), 0.7 + 0.3 * rng.random(), 0.5 + 0.5 * rng.random())
            if abs(_luma(c) - _luma(body)) > 0.3:
                return c
    if dark:
        return _hsv(rng.random(), 0.3 * rng.random(), 0.04 + 0.1 * rng.random())
    gold = rng.random() < 0.2
    return _hsv(0.12, 0.7, 0.9) if gold else _hsv(rng.random(), 0.05, 0.92 + 0.06 * rng.random())


def die_look(rng: np.random.Generator, face: str, split: str) -> DieLook:
    """One make of dice, drawn from the families ``split`` may show."""
    body = _choice(rng, allowed("body", BODIES, split))
    colour, second = body_colour(rng, body)
    pips, emblem, art = "round", "none", ""
    if face == "pips":
        pips = _choice(rng, allowed("pips", PIPS, split))
        if rng.random() < 0.25:
            emblem = _choice(rng, [e for e in allowed("emblem", EMBLEMS, split) if e != "none"])
    else:
        art = _choice(rng, allowed("card_art", CARD_ART, split))
    ink = ink_colour(rng, colour)
    red = (0.75, 0.08, 0.08) if _luma(colour) > 0.3 else (0.95, 0.3, 0.25)
    one_ink = red if rng.random() < 0.5 else ink
    return DieLook(
        face=face,
        body=body,
        colour=colour,
        second=second,
        roughness=float(rng.uniform(0.05, 0.45)),
        bevel=float(rng.uniform(0.12, 0.4)),
        pips=pips,
        emblem=emblem,
        emblem_on=1 if rng.random() < 0.6 else 6,
        ink=ink,
        one_ink=one_ink,
        card_art=art,
        art_seed=int(rng.integers(2**31)),
    )


def _kelvin(rng: np.random.Generator) -> float:
    return float(rng.choice((2700.0, 3200.0, 4000.0, 5000.0, 5600.0, 6500.0, 7500.0)))


def light_plans(rng: np.random.Generator) -> tuple[LightPlan, ...]:
    """One to three lights: warm or cold, hard or soft, now and then one that glares."""
    lights = []
    for i in range(int(rng.integers(1, 4))):
        kind = _choice(rng, ("sun", "area", "area", "point"))
        lights.append(
            LightPlan(
                kind=kind,
                kelvin=_kelvin(rng),
                power=float(rng.uniform(0.6, 1.4)) * (1.0 if i == 0 else 0.5),
                azimuth=float(rng.uniform(0, 2 * np.pi)),
                elevation=float(np.radians(rng.uniform(35, 88))),
                size=float(rng.uniform(0.5, 15.0) if kind == "sun" else rng.uniform(2.0, 80.0)),
                glare=bool(rng.random() < 0.2),
            )
        )
    return tuple(lights)


def camera_plan(rng: np.random.Generator) -> CameraPlan:
    """From straight down to 45 degrees, 24-70 mm, 720p to 12 MP, sometimes shaken."""
    tilt = 0.0 if rng.random() < 0.3 else float(rng.uniform(0, 45))
    return CameraPlan(
        tilt_deg=tilt,
        lens_mm=float(np.exp(rng.uniform(np.log(24), np.log(70)))),
        sensor=SENSORS[int(rng.integers(len(SENSORS)))],
        azimuth=float(rng.uniform(0, 2 * np.pi)),
        roll=float(rng.uniform(-np.pi, np.pi)) if rng.random() < 0.5 else 0.0,
        fstop=float(rng.choice((2.0, 2.8, 4.0, 5.6, 8.0, 16.0))),
        shake_px=float(rng.uniform(0, 12)) if rng.random() < 0.15 else 0.0,
        noise=float(rng.uniform(0, 6)),
        jpeg=int(rng.integers(70, 97)),
    )


def with_version(plan: ScenePlan, version: int) -> ScenePlan:
    """The same plan in an older renderer's look: every draw is the same, only what a
    make prints differs (``dataset.VERSION`` says how)."""
    return replace(plan, dice=tuple(replace(look, version=version) for look in plan.dice))


def scene_plan(seed: int, split: str, kind: str | None = None) -> ScenePlan:
    """The whole random plan of photo ``seed``; the same seed always gives the same plan.

    A ``test`` plan redraws until at least one of its families is held out."""
    rng = np.random.default_rng(seed)
    for _ in range(100):
        plan = _draw(rng, seed, split, kind)
        if split == "train" or held_out_families(plan):
            return plan
    raise RuntimeError("could not draw a plan with a held-out family")  # pragma: no cover


def _draw(rng: np.random.Generator, seed: int, split: str, kind: str | None) -> ScenePlan:
    kind = kind or _choice(rng, ("pips", "cards", "cards", "mixed"))
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    n = int(rng.choice((1, 2, 3, 4, 5, 5, 5, 6, 8, 10, 12, 16, 20, 25)))
    faces = {"pips": ("pips",), "cards": ("card",), "mixed": ("pips", "card")}[kind]
    sets = [die_look(rng, faces[i % len(faces)], split) for i in range(int(rng.integers(1, 4)))]
    if kind == "mixed" and len(sets) == 1:
        sets.append(die_look(rng, "card" if sets[0].face == "pips" else "pips", split))
    dice = tuple(
        sets[int(rng.integers(len(sets)))] if i >= len(sets) else sets[i] for i in range(n)
    )
    side = float(rng.uniform(*SIDE_MM))
    sides = tuple(
        side if d == dice[0] or rng.random() < 0.7 else float(rng.uniform(*SIDE_MM)) for d in dice
    )
    tray = _choice(rng, allowed("tray", TRAYS, split))
    clutter = tuple(_choice(rng, CLUTTER) for _ in range(int(rng.choice((0, 0, 1, 2, 3, 5)))))
    return ScenePlan(
        seed=seed,
        split=split,
        kind=kind,
        dice=dice,
        side_mm=sides,
        tray=tray,
        tray_colour=_hsv(rng.random(), rng.uniform(0.1, 0.8), rng.uniform(0.1, 0.85)),
        lights=light_plans(rng),
        camera=camera_plan(rng),
        clutter=clutter,
    )


def look_held_out(look: DieLook) -> set[str]:
    """The held-out families one make of dice shows."""
    mine = {"body": look.body}
    if look.face == "pips":
        mine.update(pips=look.pips, emblem=look.emblem)
    else:
        mine["card_art"] = look.card_art
    return {f for axis, f in mine.items() if f in HELD_OUT[axis]}


#: Card art whose fonts carry Cyrillic capitals (the project's art sets its ranks in
#: OpenCV's Hershey strokes, ASCII alone; the math alphabets are Latin and Greek).
CYRILLIC_ART = frozenset({"fonts", "chess", "mono", "emoji"})


def table_plan(
    table: int, seed: int, split: str, kind: str = "pips", cyrillic: bool = False
) -> ScenePlan:
    """Photo ``seed`` of one table's evening: one set of dice of one make, thrown again and
    again into one tray under one fixed camera (the dice the same size in every photo),
    the room's light and clutter changing.

    What a table teaches its dice from (issue 24): ``table`` draws the set, the tray and
    the camera; a ``test`` table's dice are of a held-out make. ``kind``: "pips" or
    "cards" (a table plays one kind of dice). ``cyrillic``: its poker dice print 9 10 В Д К
    Т, in art whose fonts have those letters (the make drawn again until it is)."""
    if kind not in ("pips", "cards"):
        raise ValueError(f"a table's kind must be pips or cards, not {kind!r}")
    if cyrillic and kind != "cards":
        raise ValueError("only poker dice print Cyrillic ranks: a Cyrillic table plays cards")
    rng = np.random.default_rng([table, 11])
    face = "pips" if kind == "pips" else "card"
    for _ in range(200):
        look = die_look(rng, face, split)
        if cyrillic and look.card_art not in CYRILLIC_ART:
            continue
        if split == "train" or look_held_out(look):
            break
    else:  # pragma: no cover
        raise RuntimeError("could not draw a held-out make of dice")
    look = replace(look, cyrillic=cyrillic)
    side = float(rng.uniform(*SIDE_MM))
    tray = _choice(rng, allowed("tray", TRAYS, split))
    tray_colour = _hsv(rng.random(), rng.uniform(0.1, 0.8), rng.uniform(0.1, 0.85))
    camera = camera_plan(rng)
    half = float(np.clip(2.2 * np.sqrt(6) * side / 10, 5, 25))  # a tray for six dice
    reach = half * float(rng.uniform(0.9, 1.3))
    throw = np.random.default_rng(seed)
    n = int(throw.choice((3, 4, 5, 5, 5, 5, 6)))
    clutter = tuple(_choice(throw, CLUTTER) for _ in range(int(throw.choice((0, 0, 1, 2)))))
    return ScenePlan(
        seed=seed,
        split=split,
        kind=kind,
        dice=(look,) * n,
        side_mm=(side,) * n,
        tray=tray,
        tray_colour=tray_colour,
        lights=light_plans(throw),
        camera=replace(
            camera,
            shake_px=float(throw.uniform(0, 6)) if throw.random() < 0.1 else 0.0,
            noise=float(throw.uniform(0, 4)),
            reach_cm=reach,
        ),
        clutter=clutter,
        tray_cm=half,
    )


#: What ``plain`` makes plain: a die's body (and its inks), its art, or both.
PLAIN = ("body", "art", "both")
#: A poker die's plain art: its rank alone, big, in Inter (``faces.glyph_card``). Not one of
#: :data:`CARD_ART`, so no plan draws it.
PLAIN_ART = "plain"
IVORY: Colour = (0.93, 0.9, 0.82)
WHITE: Colour = (0.95, 0.95, 0.93)
BLACK: Colour = (0.04, 0.04, 0.04)
RED: Colour = (0.75, 0.08, 0.08)


def plain(plan: ScenePlan, what: str) -> ScenePlan:
    """The same throw with its dice made plain, a control for the renders' figures: how
    much of what a reader loses on them is the dice's look and how much the photo's
    (camera, light, size, blur). ``body``: opaque, white (pips) or ivory (poker dice),
    black ink and red ranks (the project's own card art paints its own colours on an opaque
    body); ``art``: round pips with no emblem, a poker die's rank alone in
    big Inter (:data:`PLAIN_ART`); ``both``. The throw, tray, lights and camera are the
    plan's own (the physics does not depend on the look), so are the labels."""
    if what not in PLAIN:
        raise ValueError(f"plain makes one of {', '.join(PLAIN)} plain, not {what!r}")

    def made_plain(look: DieLook) -> DieLook:
        cards = look.face == "card"
        if what in ("body", "both"):
            colour = IVORY if cards else WHITE
            look = replace(look, body="opaque", colour=colour, second=colour, ink=BLACK)
            look = replace(look, one_ink=RED if cards else BLACK)
        if what in ("art", "both"):
            if cards:
                look = replace(look, card_art=PLAIN_ART)
            else:
                look = replace(look, pips="round", emblem="none")
        return look

    return replace(plan, dice=tuple(made_plain(d) for d in plan.dice))


#: Hues of the smoky bodies half the time (smoke grey-brown, navy, wine, bottle green, amber;
#: the other half any hue); and of the inks such dice carry (red, orange, yellow, gold, sky
#: blue), else white
SMOKES = (0.08, 0.62, 0.95, 0.38, 0.1)
SMOKY_INKS = (0.0, 0.05, 0.14, 0.12, 0.55)


def smoky(plan: ScenePlan) -> ScenePlan:
    """The same throw with every make of pip dice see-through (clear plastic coloured
    through, ``glass``, whatever the plan's version), its pips painted in a bright colour or
    white: dice whose lower faces' pips show through the body, the real tray's hardest,
    which the plans draw rarely (23 of the 2685 pip dice of version 1's first 806 train
    photos are dark and see-through with coloured pips). Its own draws (the plan's seed), so
    the throw, tray, lights, camera and labels are the plan's own; poker dice keep their
    look (render3d.md, "Smoky twins")."""
    rng = np.random.default_rng([plan.seed, 7])
    made: dict[DieLook, DieLook] = {}

    def smoked(look: DieLook) -> DieLook:
        if look.face != "pips":
            return look
        if look not in made:
            hue = float(rng.choice(SMOKES)) if rng.random() < 0.5 else rng.uniform(0, 1)
            body = _hsv(
                hue + rng.uniform(-0.03, 0.03), rng.uniform(0.25, 0.8), rng.uniform(0.45, 0.9)
            )
            paint = _hsv(float(rng.choice(SMOKY_INKS)), rng.uniform(0.6, 1.0), rng.uniform(0.75, 1))
            ink = paint if rng.random() < 0.75 else WHITE
            made[look] = replace(
                look,
                body="translucent",
                colour=body,
                second=body,
                ink=ink,
                one_ink=ink,
                glass=True,
            )
        return made[look]

    return replace(plan, dice=tuple(smoked(d) for d in plan.dice))


def families(plan: ScenePlan) -> dict[str, set[str]]:
    """The families a photo shows, per axis (what a results breakdown groups by)."""
    out: dict[str, set[str]] = {"body": set(), "pips": set(), "emblem": set(), "card_art": set()}
    for d in plan.dice:
        out["body"].add(d.body)
        if d.face == "pips":
            out["pips"].add(d.pips)
            out["emblem"].add(d.emblem)
        else:
            out["card_art"].add(d.card_art)
    out["tray"] = {plan.tray}
    return out


def held_out_families(plan: ScenePlan) -> set[str]:
    """The held-out families a photo shows (empty for every training photo)."""
    return {f for axis, names in families(plan).items() for f in names if f in HELD_OUT[axis]}

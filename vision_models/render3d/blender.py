"""A plan (:mod:`vision_models.render3d.looks`) made real in Blender: dice thrown with
rigid-body physics into a tray, lit, photographed by Cycles on the CPU, and labelled.

Scene units are centimetres (``unit_settings.scale_length = 0.01``), so lenses, depth of
field and die sizes are physical. Only this module imports ``bpy`` (the ``render3d``
extra); labels come from :mod:`vision_models.render3d.geometry`, the same numbers that
placed the mesh.
"""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import bpy
import cv2
import numpy as np

from vision_models.render3d import faces, geometry
from vision_models.render3d.looks import Colour, DieLook, ScenePlan

SEGMENTS = 4  # steps in each rounded rim of a die's mesh
FRAMES = 150  # simulated frames (at 60 fps): dice have come to rest long before
#: rendered photos are at most this wide (the nominal sensor is shrunk to it): the reader
#: shrinks every photo to a 320-px board first and cuts 48-px face crops, so more pixels
#: cost render time and teach nothing, unless the dice are small (``render``'s ``min_die``)
MAX_SIDE = 1024
#: the long side a photo of small dice is rendered at, at most (``min_die``)
SHARP_LIMIT = 1600


@dataclass(frozen=True)
class PrintSeen:
    """How much of a die's top face, and of its print there, its photo shows: what any
    reader has to go on. Some rendered dice show none (about one poker die in ten of the
    held-out photos, ``render3d.md``): their label is a guess no reader can make."""

    top_px: int  # pixels of its top face the camera sees
    ink_px: int  # of those, printed (pips, ranks, pictures, emblems)
    contrast: float  # print against body there in the photo: CIE76 colour difference


@dataclass(frozen=True)
class RenderedDie:
    value: int
    face: str
    box: tuple[float, float, float, float]  # x, y, w, h in pixels of the rendered photo
    look: DieLook
    seen: PrintSeen | None = None


@dataclass(frozen=True)
class Render:
    image: np.ndarray  # BGR uint8
    dice: list[RenderedDie]
    dropped: int  # dice taken out: cocked, out of frame or hidden behind others


# --- fonts -----------------------------------------------------------------------------------

_FONT_FILES = {
    "inter": "Inter.woff2",
    "cjk": "Noto Sans CJK Regular.woff2",
    "mono": "DejaVuSansMono.woff2",
    "symbols": "NotoSansSymbols2-Regular.woff2",
    "emoji": "NotoEmoji-VariableFont_wght.woff2",
    "math": "NotoSansMath-Regular.woff2",
}
#: Mathematical alphanumeric styles of Noto Sans Math: (capital A, digit 0) code points.
_MATH = {
    "math-bold": (0x1D400, 0x1D7CE),
    "math-fraktur": (0x1D504, 0x1D7CE),
    "math-double": (0x1D538, 0x1D7D8),
    "math-sans": (0x1D5D4, 0x1D7E2),
    "math-mono": (0x1D670, 0x1D7F6),
    "math-script": (0x1D49C, 0x1D7CE),
}
#: letters a style borrows from the Letterlike Symbols block
_MATH_GAPS = {("math-double", "Q"): "\u211a"}


def _math_text(style: str, text: str) -> str:
    capital, digit = _MATH[style]
    out = []
    for ch in text:
        if (style, ch) in _MATH_GAPS:
            out.append(_MATH_GAPS[style, ch])
        elif ch.isdigit():
            out.append(chr(digit + int(ch)))
        else:
            out.append(chr(capital + ord(ch) - ord("A")))
    return "".join(out)


@lru_cache(maxsize=256)
def glyphs(font: str, text: str) -> np.ndarray:
    """Triangles (n, 3, 2) of ``text`` set in one of Blender's bundled fonts (y up)."""
    folder = Path(bpy.utils.system_resource("DATAFILES", path="fonts"))
    if font.startswith("math-"):
        text, file = _math_text(font, text), _FONT_FILES["math"]
    else:
        file = _FONT_FILES[font]
    loaded = bpy.data.fonts.load(str(folder / file), check_existing=True)
    curve = bpy.data.curves.new("glyph", type="FONT")
    curve.body = text
    curve.font = loaded
    obj = bpy.data.objects.new("glyph", curve)
    bpy.context.scene.collection.objects.link(obj)
    evaluated = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = evaluated.to_mesh()
    mesh.calc_loop_triangles()
    verts = np.array([v.co[:2] for v in mesh.vertices], np.float64)
    tris = np.array([t.vertices[:] for t in mesh.loop_triangles], np.int64)
    evaluated.to_mesh_clear()
    bpy.data.objects.remove(obj)
    bpy.data.curves.remove(curve)
    return verts[tris] if len(tris) else np.zeros((0, 3, 2))


# --- materials -------------------------------------------------------------------------------


def _rgba(c: Colour, a: float = 1.0) -> tuple[float, float, float, float]:
    """sRGB to Blender's linear colour."""
    lin = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
    return (*lin, a)  # type: ignore[return-value]


def kelvin_rgb(kelvin: float) -> tuple[float, float, float]:
    """Approximate colour of a black body (Tanner Helland's fit), 0..1 sRGB."""
    t = kelvin / 100.0
    r = 1.0 if t <= 66 else min(1.0, 1.2929 * (t - 60) ** -0.1332)
    g = 0.3901 * math.log(t) - 0.6318 if t <= 66 else 1.1299 * (t - 60) ** -0.0755
    b = 1.0 if t >= 66 else (0.0 if t <= 19 else 0.5432 * math.log(t - 10) - 1.1963)
    return (r, max(0.0, min(1.0, g)), max(0.0, min(1.0, b)))


def _image(pixels: np.ndarray, name: str, colour: bool) -> bpy.types.Image:
    """A Blender image from an (H, W, C) float array (row 0 at the top)."""
    folder = Path(tempfile.mkdtemp(prefix="render3d-"))
    path = folder / f"{name}.png"
    data = np.clip(pixels * 255 + 0.5, 0, 255).astype(np.uint8)
    if data.ndim == 3 and data.shape[2] == 4:
        data = cv2.cvtColor(data, cv2.COLOR_RGBA2BGRA)
    elif data.ndim == 3:
        data = cv2.cvtColor(data, cv2.COLOR_RGB2BGR)
    cv2.imwrite(str(path), data)
    image = bpy.data.images.load(str(path))
    image.pack()
    path.unlink()
    folder.rmdir()
    image.colorspace_settings.name = "sRGB" if colour else "Non-Color"
    image.alpha_mode = "CHANNEL_PACKED"
    return image


class _Nodes:
    """A thin helper over one material's node tree: add nodes, link sockets."""

    def __init__(self, name: str) -> None:
        self.material = bpy.data.materials.new(name)
        self.material.use_nodes = True
        self.tree = self.material.node_tree
        self.tree.nodes.clear()
        self.out = self.add("ShaderNodeOutputMaterial")

    def add(self, kind: str, **inputs: object) -> bpy.types.Node:
        node = self.tree.nodes.new(kind)
        for key, value in inputs.items():
            if key in node.inputs:
                node.inputs[key].default_value = value
            else:
                setattr(node, key, value)
        return node

    def link(self, a: bpy.types.NodeSocket | object, b: bpy.types.NodeSocket) -> None:
        """Feed ``b`` from socket ``a``, or set it to the plain value ``a``."""
        if isinstance(a, bpy.types.NodeSocket):
            self.tree.links.new(a, b)
        else:
            b.default_value = a

    def mix_colour(self, fac: bpy.types.NodeSocket, a: object, b: object) -> bpy.types.NodeSocket:
        mix = self.add("ShaderNodeMix", data_type="RGBA")
        self.link(fac, mix.inputs[0])
        for socket, value in ((mix.inputs[6], a), (mix.inputs[7], b)):
            if isinstance(value, bpy.types.NodeSocket):
                self.link(value, socket)
            else:
                socket.default_value = value
        return mix.outputs[2]

    def ramp(
        self, fac: bpy.types.NodeSocket, stops: list[tuple[float, float]]
    ) -> bpy.types.NodeSocket:
        """A greyscale ramp through (position, value) stops."""
        node = self.add("ShaderNodeValToRGB")
        elements = node.color_ramp.elements
        while len(elements) < len(stops):
            elements.new(0.5)
        for element, (pos, value) in zip(elements, stops, strict=False):
            element.position = pos
            element.color = (value, value, value, 1.0)
        self.link(fac, node.inputs[0])
        return node.outputs[0]


def _body_pattern(n: _Nodes, look: DieLook, side: float, rng: np.random.Generator):
    """The body's colour: plain, or veined, swirled, pearly or grained through the solid."""
    base, second = _rgba(look.colour), _rgba(look.second)
    coords = n.add("ShaderNodeTexCoord").outputs["Object"]
    mapping = n.add("ShaderNodeMapping")
    n.link(coords, mapping.inputs[0])
    mapping.inputs["Location"].default_value = tuple(rng.uniform(-50, 50, 3))
    mapping.inputs["Rotation"].default_value = tuple(rng.uniform(0, 2 * np.pi, 3))
    vec = mapping.outputs[0]
    if look.body == "marbled":
        noise = n.add("ShaderNodeTexNoise", Scale=float(rng.uniform(0.6, 2.0)) / side, Detail=6.0)
        noise.inputs["Distortion"].default_value = float(rng.uniform(0.5, 3.0))
        n.link(vec, noise.inputs["Vector"])
        wave = n.add("ShaderNodeTexWave", Scale=float(rng.uniform(0.5, 1.5)) / side)
        wave.inputs["Distortion"].default_value = float(rng.uniform(4, 12))
        n.link(noise.outputs["Color"], wave.inputs["Vector"])
        veins = n.ramp(wave.outputs["Fac"], [(0.0, 0.0), (0.42, 0.0), (0.5, 1.0), (0.58, 0.0)])
        return n.mix_colour(veins, base, second)
    if look.body == "swirled":
        wave = n.add("ShaderNodeTexWave", Scale=float(rng.uniform(0.8, 2.5)) / side)
        wave.inputs["Distortion"].default_value = float(rng.uniform(6, 20))
        wave.inputs["Detail"].default_value = 3.0
        n.link(vec, wave.inputs["Vector"])
        return n.mix_colour(n.ramp(wave.outputs["Fac"], [(0.3, 0.0), (0.7, 1.0)]), base, second)
    if look.body == "pearl":
        noise = n.add("ShaderNodeTexNoise", Scale=float(rng.uniform(1, 4)) / side, Detail=3.0)
        n.link(vec, noise.inputs["Vector"])
        return n.mix_colour(n.ramp(noise.outputs["Fac"], [(0.35, 0.0), (0.65, 0.8)]), base, second)
    if look.body == "wood":
        wave = n.add("ShaderNodeTexWave", wave_type="RINGS", Scale=float(rng.uniform(3, 8)) / side)
        wave.inputs["Distortion"].default_value = float(rng.uniform(1, 4))
        wave.inputs["Detail"].default_value = 4.0
        n.link(vec, wave.inputs["Vector"])
        return n.mix_colour(n.ramp(wave.outputs["Fac"], [(0.2, 0.0), (0.8, 1.0)]), base, second)
    return base


def die_material(look: DieLook, side: float, seed: int) -> bpy.types.Material:
    """The make's material: its body, with the atlas's ink (and pits) printed on top."""
    rng = np.random.default_rng(seed)
    ink, relief, body_colour = faces.atlas(look, glyphs, seed)
    if body_colour != look.colour:
        look = DieLook(**{**look.__dict__, "colour": body_colour})
    n = _Nodes(f"die-{seed}")
    uv = n.add("ShaderNodeUVMap").outputs[0]
    ink_tex = n.add("ShaderNodeTexImage", image=_image(ink, f"ink-{seed}", True))
    relief_tex = n.add("ShaderNodeTexImage", image=_image(relief, f"relief-{seed}", False))
    for tex in (ink_tex, relief_tex):
        n.link(uv, tex.inputs["Vector"])
    bump = n.add("ShaderNodeBump", Strength=1.0, Distance=0.06 * side)
    n.link(relief_tex.outputs["Color"], bump.inputs["Height"])
    normal = bump.outputs["Normal"]

    body = n.add("ShaderNodeBsdfPrincipled", Roughness=look.roughness, IOR=1.5)
    n.link(_body_pattern(n, look, side, rng), body.inputs["Base Color"])
    clear = look.body == "translucent" and (look.version >= 4 or look.glass)
    lets_light = clear
    if clear:
        _clear_plastic(n, body, look.colour, side, rng)
    elif look.body == "translucent":
        body.inputs["Transmission Weight"].default_value = float(rng.uniform(0.6, 0.95))
        body.inputs["Roughness"].default_value = float(rng.uniform(0.0, 0.15))
    elif look.body == "marbled" and rng.random() < 0.5:
        body.inputs["Transmission Weight"].default_value = float(rng.uniform(0.3, 0.8))
        lets_light = look.version >= 4  # its veins stay on its surface
    elif look.body == "pearl":
        body.inputs["Coat Weight"].default_value = 1.0
        body.inputs["Sheen Weight"].default_value = 0.5
        body.inputs["Metallic"].default_value = 0.3
        if "Thin Film Thickness" in body.inputs:
            body.inputs["Thin Film Thickness"].default_value = float(rng.uniform(200, 600))
    elif look.body == "metallic":
        body.inputs["Metallic"].default_value = float(rng.uniform(0.7, 1.0))
        body.inputs["Coat Weight"].default_value = float(rng.uniform(0.0, 1.0))
        body.inputs["Roughness"].default_value = float(rng.uniform(0.2, 0.5))
    elif look.body == "wood":
        body.inputs["Roughness"].default_value = float(rng.uniform(0.4, 0.7))
    else:
        body.inputs["Coat Weight"].default_value = float(rng.uniform(0.0, 0.6))
    paint = n.add("ShaderNodeBsdfPrincipled", Roughness=float(rng.uniform(0.3, 0.7)))
    n.link(ink_tex.outputs["Color"], paint.inputs["Base Color"])
    for bsdf in (body, paint):
        n.link(normal, bsdf.inputs["Normal"])
    mix = n.add("ShaderNodeMixShader")
    n.link(ink_tex.outputs["Alpha"], mix.inputs[0])
    n.link(body.outputs[0], mix.inputs[1])
    n.link(paint.outputs[0], mix.inputs[2])
    surface = mix.outputs[0]
    if lets_light:
        # light reaches the floor and the faces below through the die, tinted: the caustics
        # Cycles leaves out (caustics_refractive) would otherwise leave both in its shadow
        shadow = n.add("ShaderNodeMixShader")
        n.link(n.add("ShaderNodeLightPath").outputs["Is Shadow Ray"], shadow.inputs[0])
        n.link(surface, shadow.inputs[1])
        tint = n.add("ShaderNodeBsdfTransparent", Color=_rgba(look.colour))
        n.link(tint.outputs[0], shadow.inputs[2])
        surface = shadow.outputs[0]
    n.link(surface, n.out.inputs["Surface"])
    return n.material


#: How deep a clear die's colour is: its absorption over one side, drawn log-evenly
#: (about 1: pale, the pips of the faces below plain; 10: dark, they barely show)
CLEAR_DEPTH = (0.8, 10.0)


def _clear_plastic(
    n: _Nodes,
    body: bpy.types.Node,
    colour: Colour,
    side: float,
    rng: np.random.Generator,
) -> None:
    """A translucent body as real ones are: clear plastic coloured through (absorption in
    its volume, deeper along longer paths), so the tray and the faces below show through
    it. A glass surface tinted instead goes dark: no light reaches inside it."""
    body.inputs["Base Color"].default_value = (0.95, 0.95, 0.95, 1.0)
    body.inputs["Transmission Weight"].default_value = float(rng.uniform(0.92, 1.0))
    body.inputs["Roughness"].default_value = float(rng.uniform(0.0, 0.08))
    volume = n.add("ShaderNodeVolumeAbsorption", Color=_rgba(colour))
    depth = float(np.exp(rng.uniform(*np.log(CLEAR_DEPTH))))
    volume.inputs["Density"].default_value = depth / side
    n.link(volume.outputs[0], n.out.inputs["Volume"])


def surface_material(kind: str, colour: Colour, rng: np.random.Generator) -> bpy.types.Material:
    """A tray or table surface: felt, wood, cardboard, leather or printed cloth."""
    n = _Nodes(f"surface-{kind}")
    bsdf = n.add("ShaderNodeBsdfPrincipled")
    coords = n.add("ShaderNodeTexCoord").outputs["Object"]
    base = _rgba(colour)
    other = _rgba(tuple(float(c) for c in rng.uniform(0.05, 0.95, 3)))
    dark = (*tuple(c * 0.6 for c in base[:3]), 1.0)
    grain = n.add("ShaderNodeTexNoise", Scale=float(rng.uniform(2, 8)), Detail=8.0)
    n.link(coords, grain.inputs["Vector"])
    colour_socket: object = base
    roughness = 0.9
    bump_scale = 0.02
    if kind == "felt":
        colour_socket = n.mix_colour(
            n.ramp(grain.outputs["Fac"], [(0.3, 0.0), (0.7, 0.3)]), base, dark
        )
        roughness, bump_scale = 1.0, 0.03
        bsdf.inputs["Sheen Weight"].default_value = 0.6
    elif kind == "wood":
        wood = _rgba(_wood_colour(rng))
        stretch = n.add("ShaderNodeMapping")  # grain runs along the boards
        stretch.inputs["Scale"].default_value = (1.0, float(rng.uniform(0.03, 0.1)), 1.0)
        stretch.inputs["Rotation"].default_value = (0, 0, float(rng.uniform(0, np.pi)))
        n.link(coords, stretch.inputs["Vector"])
        wave = n.add("ShaderNodeTexWave", Scale=float(rng.uniform(0.1, 0.4)))
        wave.inputs["Distortion"].default_value = float(rng.uniform(2, 6))
        wave.inputs["Detail"].default_value = 6.0
        wave.inputs["Detail Scale"].default_value = float(rng.uniform(1, 4))
        n.link(stretch.outputs[0], wave.inputs["Vector"])
        colour_socket = n.mix_colour(
            wave.outputs["Fac"], wood, (*tuple(c * 0.55 for c in wood[:3]), 1.0)
        )
        roughness, bump_scale = float(rng.uniform(0.3, 0.7)), 0.005
    elif kind == "cardboard":
        card = _rgba((0.55 + 0.2 * rng.random(), 0.42 + 0.15 * rng.random(), 0.3))
        if rng.random() < 0.3:
            card = _rgba((0.85, 0.85, 0.82))
        colour_socket = n.mix_colour(
            n.ramp(grain.outputs["Fac"], [(0.3, 0.0), (0.7, 0.4)]), card, dark
        )
        roughness = 0.95
    elif kind == "leather":
        cells = n.add("ShaderNodeTexVoronoi", Scale=float(rng.uniform(4, 12)))
        n.link(coords, cells.inputs["Vector"])
        colour_socket = n.mix_colour(
            n.ramp(cells.outputs["Distance"], [(0.0, 0.0), (0.5, 0.5)]), base, dark
        )
        grain = cells
        roughness, bump_scale = float(rng.uniform(0.35, 0.6)), 0.04
    elif kind == "cloth":
        pattern = n.add(
            "ShaderNodeTexChecker" if rng.random() < 0.5 else "ShaderNodeTexWave",
            Scale=float(rng.uniform(0.2, 1.0)),
        )
        n.link(coords, pattern.inputs["Vector"])
        fac = pattern.outputs["Fac"]
        colour_socket = n.mix_colour(fac, base, other)
        roughness = 0.95
        bsdf.inputs["Sheen Weight"].default_value = 0.3
    n.link(colour_socket, bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = roughness
    bump = n.add("ShaderNodeBump", Strength=0.5, Distance=bump_scale)
    n.link(grain.outputs[0], bump.inputs["Height"])
    n.link(bump.outputs["Normal"], bsdf.inputs["Normal"])
    n.link(bsdf.outputs[0], n.out.inputs["Surface"])
    return n.material


def _wood_colour(rng: np.random.Generator) -> Colour:
    return (
        float(rng.uniform(0.35, 0.8)),
        float(rng.uniform(0.22, 0.55)),
        float(rng.uniform(0.1, 0.3)),
    )


def plain_material(name: str, colour: Colour, roughness: float, metallic: float = 0.0):
    n = _Nodes(name)
    bsdf = n.add("ShaderNodeBsdfPrincipled", Roughness=roughness, Metallic=metallic)
    bsdf.inputs["Base Color"].default_value = _rgba(colour)
    n.link(bsdf.outputs[0], n.out.inputs["Surface"])
    return n.material


# --- objects ---------------------------------------------------------------------------------


def die_mesh(side: float, bevel: float) -> bpy.types.Mesh:
    """The die's rounded cube as a mesh, each face's UVs on its cell of the atlas."""
    import bmesh

    points, uvs = geometry.rounded_cube(side, bevel, SEGMENTS)
    k = points.shape[1]
    bm = bmesh.new()
    uv_layer = bm.loops.layers.uv.new("UVMap")
    for f in range(6):
        value = geometry.FACES[f][3]
        atlas_uv = faces.cell_uv(value, uvs[f])
        verts = [[bm.verts.new(points[f, j, i]) for i in range(k)] for j in range(k)]
        for j in range(k - 1):
            for i in range(k - 1):
                corners = [(j, i), (j, i + 1), (j + 1, i + 1), (j + 1, i)]
                face = bm.faces.new([verts[a][b] for a, b in corners])
                face.smooth = True
                for loop, (a, b) in zip(face.loops, corners, strict=True):
                    loop[uv_layer].uv = atlas_uv[a, b]
    bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=side * 1e-5)
    mesh = bpy.data.meshes.new("die")
    bm.to_mesh(mesh)
    bm.free()
    return mesh


def link(obj: bpy.types.Object) -> bpy.types.Object:
    bpy.context.scene.collection.objects.link(obj)
    return obj


def make_rigid(obj: bpy.types.Object, kind: str, shape: str, friction: float = 0.5) -> None:
    with bpy.context.temp_override(object=obj, active_object=obj, selected_objects=[obj]):
        bpy.ops.rigidbody.object_add(type=kind)
    obj.rigid_body.collision_shape = shape
    obj.rigid_body.friction = friction
    obj.rigid_body.restitution = 0.3
    obj.rigid_body.collision_margin = 0.005


def box_object(name: str, size: tuple[float, float, float], at: tuple[float, float, float]):
    bpy.ops.mesh.primitive_cube_add(size=1, location=at)
    obj = bpy.context.active_object
    obj.name = name
    obj.scale = size
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    return obj


def _cylinder(name: str, radius: float, depth: float, at: tuple[float, float, float]):
    bpy.ops.mesh.primitive_cylinder_add(radius=radius, depth=depth, location=at, vertices=48)
    obj = bpy.context.active_object
    obj.name = name
    bpy.ops.object.shade_smooth_by_angle(angle=math.radians(40))  # round sides, flat faces
    return obj


def _text(body: str, size: float, at: tuple[float, float, float], colour: Colour, yaw: float):
    curve = bpy.data.curves.new("print", type="FONT")
    curve.body = body
    curve.size = size
    curve.align_x, curve.align_y = "CENTER", "CENTER"
    obj = link(bpy.data.objects.new("print", curve))
    obj.location = at
    obj.rotation_euler = (0, 0, yaw)
    obj.data.materials.append(plain_material("print", colour, 0.5))
    return obj


def _meeple(colour: Colour, at: tuple[float, float], yaw: float, height: float):
    """A board-game figure: a head on a body with arms and legs, cut from wood."""
    import bmesh

    s = height / 2.6
    outline = [
        (0, 2.6), (0.45, 2.45), (0.55, 2.0), (0.35, 1.7), (1.2, 1.45), (1.25, 1.1),
        (0.55, 1.05), (1.0, 0.0), (0.25, 0.0), (0, 0.5),
    ]  # fmt: skip
    half = [(x * s, y * s) for x, y in outline]
    shape = half + [(-x, y) for x, y in reversed(half[1:-1])]
    bm = bmesh.new()
    verts = [bm.verts.new((x, 0.0, y)) for x, y in shape]
    face = bm.faces.new(verts)
    extruded = bmesh.ops.extrude_face_region(bm, geom=[face])
    moved = [e for e in extruded["geom"] if isinstance(e, bmesh.types.BMVert)]
    bmesh.ops.translate(bm, verts=moved, vec=(0, 0.9 * s, 0))
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces[:])
    mesh = bpy.data.meshes.new("meeple")
    bm.to_mesh(mesh)
    bm.free()
    obj = link(bpy.data.objects.new("meeple", mesh))
    obj.data.materials.append(plain_material("meeple", colour, 0.6))
    # lying on its back or standing
    if np.random.default_rng(int(yaw * 1000)).random() < 0.5:
        obj.rotation_euler = (np.pi / 2, 0, yaw)
        obj.location = (at[0], at[1], 0.9 * s)
    else:
        obj.rotation_euler = (0, 0, yaw)
        obj.location = (at[0], at[1], 0.0)
    return obj


# --- the scene -------------------------------------------------------------------------------


def new_scene(threads: int) -> bpy.types.Scene:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.unit_settings.system = "METRIC"
    scene.unit_settings.scale_length = 0.01  # one unit is a centimetre
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.render.threads_mode = "FIXED"
    scene.render.threads = threads
    scene.render.fps = 60
    return scene


def _tray(plan: ScenePlan, rng: np.random.Generator, extent: float) -> list[bpy.types.Object]:
    """The floor the dice land on, the tray's walls, and the table around it."""
    objs = []
    table_kind = "wood" if plan.tray in ("felt", "leather", "cloth", "boardgame") else "cardboard"
    if rng.random() < 0.3:
        table_kind = "cloth" if plan.split == "test" and rng.random() < 0.5 else "felt"
    floor_kind = {"boardgame": table_kind}.get(plan.tray, plan.tray)
    bpy.ops.mesh.primitive_plane_add(size=400, location=(0, 0, -0.6))
    table = bpy.context.active_object
    table.data.materials.append(surface_material(table_kind, plan.tray_colour[::-1], rng))
    objs.append(table)
    walled = plan.tray != "boardgame" and rng.random() < 0.8
    floor = box_object("floor", (2 * extent, 2 * extent, 2.0), (0, 0, -1.0))  # thick: no tunnelling
    floor.data.materials.append(surface_material(floor_kind, plan.tray_colour, rng))
    make_rigid(floor, "PASSIVE", "BOX", friction=0.6)
    objs.append(floor)
    if walled:
        height, thick = float(rng.uniform(1.5, 5.0)), float(rng.uniform(0.6, 2.0))
        wall_mat = surface_material(
            "wood" if rng.random() < 0.6 else floor_kind, plan.tray_colour, rng
        )
        for sx, sy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            size = (thick, 2 * extent + 2 * thick, height) if sx else (2 * extent, thick, height)
            at = (sx * (extent + thick / 2), sy * (extent + thick / 2), height / 2 - 0.6)
            wall = box_object("wall", size, at)
            wall.data.materials.append(wall_mat)
            make_rigid(wall, "PASSIVE", "BOX")
            objs.append(wall)
    for sx, sy in ((1, 0), (-1, 0), (0, 1), (0, -1)):  # invisible fences keep dice on the floor
        size = (2, 2 * extent + 4, 40) if sx else (2 * extent + 4, 2, 40)
        fence = box_object("fence", size, (sx * (extent + 1), sy * (extent + 1), 20))
        make_rigid(fence, "PASSIVE", "BOX")
    if plan.tray == "boardgame" or rng.random() < 0.15:
        _board_game(rng, extent)
    return objs


def _board_game(rng: np.random.Generator, extent: float) -> None:
    """A game board beside the dice: coloured spaces, numbers and a box lid edge."""
    size = float(rng.uniform(25, 50))
    side = rng.choice((-1, 1))
    at = (side * (extent + size / 2 + rng.uniform(0, 3)), float(rng.uniform(-10, 10)), -0.45)
    board = box_object("board", (size, size, 0.3), at)
    n = _Nodes("board")
    bsdf = n.add("ShaderNodeBsdfPrincipled", Roughness=0.5)
    coords = n.add("ShaderNodeTexCoord").outputs["Object"]
    cells = n.add("ShaderNodeTexVoronoi", Scale=float(rng.uniform(0.1, 0.4)))
    n.link(coords, cells.inputs["Vector"])
    checker = n.add("ShaderNodeTexChecker", Scale=float(rng.uniform(0.2, 0.6)))
    n.link(coords, checker.inputs["Vector"])
    checker.inputs["Color1"].default_value = _rgba(tuple(rng.uniform(0.2, 0.95, 3)))
    n.link(cells.outputs["Color"], checker.inputs["Color2"])
    n.link(checker.outputs["Color"], bsdf.inputs["Base Color"])
    n.link(bsdf.outputs[0], n.out.inputs["Surface"])
    board.data.materials.append(n.material)
    for _ in range(int(rng.integers(2, 8))):  # printed numbers on the board's spaces
        x = at[0] + rng.uniform(-size / 2.5, size / 2.5)
        y = at[1] + rng.uniform(-size / 2.5, size / 2.5)
        _text(
            str(int(rng.integers(2, 13))),
            float(rng.uniform(1, 3)),
            (x, y, -0.29),
            (0.1, 0.1, 0.1),
            0,
        )


def _clutter(plan: ScenePlan, rng: np.random.Generator, extent: float) -> None:
    """Coins, number tokens, meeples and playing cards lying about the tray."""
    for kind in plan.clutter:
        x, y = (float(v) for v in rng.uniform(-extent * 0.9, extent * 0.9, 2))
        yaw = float(rng.uniform(0, 2 * np.pi))
        if kind == "coin":
            r = float(rng.uniform(0.8, 1.4))
            coin = _cylinder("coin", r, 0.2, (x, y, 0.1))
            gold = rng.random() < 0.5
            colour = (0.85, 0.65, 0.3) if gold else (0.8, 0.8, 0.78)
            coin.data.materials.append(
                plain_material("coin", colour, float(rng.uniform(0.2, 0.5)), 1.0)
            )
            make_rigid(coin, "PASSIVE", "CYLINDER")
        elif kind == "token":
            r = float(rng.uniform(1.0, 1.8))
            token = _cylinder("token", r, 0.3, (x, y, 0.15))
            colour = tuple(float(c) for c in rng.uniform(0.1, 0.95, 3))
            token.data.materials.append(plain_material("token", colour, 0.6))
            make_rigid(token, "PASSIVE", "CYLINDER")
            ink = (0.05, 0.05, 0.05) if sum(colour) > 1.5 else (0.95, 0.95, 0.95)
            _text(str(int(rng.integers(2, 13))), r * 1.1, (x, y, 0.305), ink, yaw)
        elif kind == "meeple":
            colour = tuple(float(c) for c in rng.uniform(0.05, 0.95, 3))
            obj = _meeple(colour, (x, y), yaw, float(rng.uniform(1.6, 2.6)))
            make_rigid(obj, "PASSIVE", "CONVEX_HULL")
        else:
            w, h = (5.7, 8.9) if rng.random() < 0.5 else (4.4, 6.3)
            card = box_object("card", (w, h, 0.03), (x, y, 0.015))
            card.rotation_euler = (0, 0, yaw)
            card.data.materials.append(plain_material("card", (0.93, 0.92, 0.88), 0.35))
            ink = (0.75, 0.08, 0.08) if rng.random() < 0.5 else (0.05, 0.05, 0.05)
            rank = str(rng.choice(("2", "3", "5", "7", "8", "J", "Q", "K", "A")))
            _text(rank, w * 0.35, (x, y, 0.035), ink, yaw)


def turned(obj: bpy.types.Object, mode: str, values: tuple[float, ...]) -> None:
    """Turn an object by a ``geometry.drop_turn``: Euler angles or a unit quaternion."""
    obj.rotation_mode = mode
    if mode == "QUATERNION":
        obj.rotation_quaternion = values
    else:
        obj.rotation_euler = values


def _throw(plan: ScenePlan, rng: np.random.Generator, extent: float) -> list[bpy.types.Object]:
    """Dice dropped and spun over the tray; Bullet plays the throw out."""
    dice = []
    materials: dict[int, bpy.types.Material] = {}
    # start apart, in a loose cloud above the tray: overlapping bodies would explode
    gap = 1.5 * max(plan.side_mm) / 10
    cols = max(1, int(2 * extent * 0.7 // gap))
    cells = rng.permutation(cols * cols * 4)[: len(plan.dice)]
    spots = [
        (
            (c % cols - (cols - 1) / 2) * gap + float(rng.uniform(-0.2, 0.2)) * gap,
            ((c // cols) % cols - (cols - 1) / 2) * gap + float(rng.uniform(-0.2, 0.2)) * gap,
            3.0 + (c // (cols * cols)) * gap + float(rng.uniform(0, 1)),
        )
        for c in cells
    ]
    for i, (look, side_mm) in enumerate(zip(plan.dice, plan.side_mm, strict=True)):
        side = side_mm / 10
        key = hash(look)
        if key not in materials:
            materials[key] = die_material(look, side, plan.seed * 31 + len(materials))
        obj = link(bpy.data.objects.new(f"die-{i}", die_mesh(side, look.bevel)))
        obj.data.materials.append(materials[key])
        obj.location = spots[i]
        turned(obj, *geometry.drop_turn(rng, look.version))
        make_rigid(obj, "ACTIVE", "BOX")
        obj.rigid_body.mass = (side / 1.6) ** 3 * 0.005
        dice.append(obj)
    return dice


def settle(scene: bpy.types.Scene, objs: list[bpy.types.Object], rng: np.random.Generator) -> None:
    world = scene.rigidbody_world
    world.substeps_per_frame = 20
    world.solver_iterations = 30
    scene.gravity = (0, 0, -981.0)
    world.point_cache.frame_start = 1
    world.point_cache.frame_end = FRAMES
    scene.frame_start, scene.frame_end = 1, FRAMES
    # a sideways fling: kinematic nudges are messy, so tilt gravity for the first frames
    push = rng.uniform(-150, 150, 2)
    for frame in range(1, FRAMES + 1):
        if frame == 1:
            scene.gravity = (float(push[0]), float(push[1]), -981.0)
        elif frame == 20:
            scene.gravity = (0, 0, -981.0)
        scene.frame_set(frame)
    final = {o.name: np.array(o.matrix_world) for o in scene.objects}
    bpy.ops.rigidbody.world_remove()
    for fence in [o for o in scene.objects if o.name.startswith("fence")]:
        bpy.data.objects.remove(fence)  # they would stop the visibility rays
    for o in scene.objects:
        if o.name in final:
            o.matrix_world = _matrix(final[o.name])


def _matrix(m: np.ndarray):
    from mathutils import Matrix

    return Matrix(m.tolist())


def _at_rest(matrix: np.ndarray, extent: float) -> bool:
    """A die lying level on the tray's floor (not cocked, not flown off)."""
    x, y, z = matrix[:3, 3]
    on_floor = abs(x) < extent and abs(y) < extent and -0.5 < z < 4.0
    return on_floor and geometry.is_level(matrix[:3, :3])


def _camera(scene: bpy.types.Scene, plan: ScenePlan, rng: np.random.Generator, dice, max_side: int):
    """The camera aimed at the thrown dice, from the plan's tilt, far enough to frame them;
    a table's fixed camera (``reach_cm``) aimed at the tray's centre wherever they lie."""
    cam = plan.camera
    width, height = cam.sensor
    scale = min(1.0, max_side / max(width, height))
    width, height = round(width * scale), round(height * scale)
    centres = np.array([np.array(d.matrix_world)[:3, 3] for d in dice])
    target = centres.mean(axis=0)
    target[2] = 0.0
    reach = float(np.max(np.linalg.norm(centres[:, :2] - target[:2], axis=1))) + 2.5
    fov_short = 2 * math.atan(36.0 / 2 / cam.lens_mm * min(width, height) / max(width, height))
    distance = reach / math.tan(fov_short / 2) * float(rng.uniform(0.9, 1.6))
    if cam.reach_cm > 0:
        target = np.zeros(3)
        distance = cam.reach_cm / math.tan(fov_short / 2)
    distance = max(distance, 12.0)
    tilt = math.radians(cam.tilt_deg)
    eye = target + distance * np.array(
        [
            math.sin(tilt) * math.cos(cam.azimuth),
            math.sin(tilt) * math.sin(cam.azimuth),
            math.cos(tilt),
        ]
    )
    matrix = geometry.look_at(eye, target, cam.roll)
    data = bpy.data.cameras.new("camera")
    data.lens = cam.lens_mm
    data.sensor_width = 36.0
    data.sensor_fit = "AUTO"
    data.dof.use_dof = True
    data.dof.focus_distance = distance  # scene units (cm); the f-stop is scaled by Blender
    data.dof.aperture_fstop = cam.fstop
    obj = link(bpy.data.objects.new("camera", data))
    obj.matrix_world = _matrix(matrix)
    scene.camera = obj
    scene.render.resolution_x, scene.render.resolution_y = width, height
    scene.render.resolution_percentage = 100
    return geometry.Camera(matrix, cam.lens_mm, 36.0, width, height), distance, target


def _lights(
    scene: bpy.types.Scene, plan: ScenePlan, target: np.ndarray, cam_matrix: np.ndarray, rng
):
    """The plan's lights: suns and lamps, warm or cold, hard or soft; a glare light sits
    where the dice tops mirror it into the lens. A dim sky fills the shadows."""
    irradiance = float(rng.uniform(2.0, 5.0))
    for i, light in enumerate(plan.lights):
        colour = kelvin_rgb(light.kelvin)
        e = irradiance * light.power
        direction = np.array(
            [
                math.cos(light.elevation) * math.cos(light.azimuth),
                math.cos(light.elevation) * math.sin(light.azimuth),
                math.sin(light.elevation),
            ]
        )
        if light.glare:
            eye = cam_matrix[:3, 3] - target
            direction = np.array([-eye[0], -eye[1], eye[2]]) / np.linalg.norm(eye)
        distance = float(rng.uniform(40, 150))
        if light.kind == "sun":
            data = bpy.data.lights.new(f"light-{i}", "SUN")
            data.energy = e
            data.angle = math.radians(light.size)
        elif light.kind == "area":
            data = bpy.data.lights.new(f"light-{i}", "AREA")
            data.size = light.size
            data.energy = math.pi * distance**2 * e
        else:
            data = bpy.data.lights.new(f"light-{i}", "POINT")
            data.shadow_soft_size = light.size / 20
            data.energy = 4 * math.pi * distance**2 * e
        data.color = colour
        obj = link(bpy.data.objects.new(f"light-{i}", data))
        eye = target + distance * direction
        obj.matrix_world = _matrix(geometry.look_at(eye, target))
    world = bpy.data.worlds.new("sky")
    world.use_nodes = True
    background = world.node_tree.nodes["Background"]
    sky = kelvin_rgb(float(rng.choice((3000.0, 5000.0, 6500.0, 9000.0))))
    background.inputs["Color"].default_value = (*sky, 1.0)
    background.inputs["Strength"].default_value = float(rng.uniform(0.1, 0.6))
    scene.world = world


def _top_visible(scene, die: bpy.types.Object, side: float, eye: np.ndarray) -> float:
    """Share of points on the die's top face that the camera sees (ray casts)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    m = np.array(die.matrix_world)
    value, _ = geometry.top_face(m[:3, :3])
    normal, u, v, _ = geometry.FACES[int(np.nonzero(value == geometry.VALUES)[0][0])]
    seen = 0
    offsets = [(0, 0), (0.3, 0.3), (-0.3, 0.3), (0.3, -0.3), (-0.3, -0.3)]
    from mathutils import Vector

    for a, b in offsets:
        local = side / 2 * (np.array(normal) * 1.0 + a * np.array(u) + b * np.array(v))
        point = m[:3, :3] @ local + m[:3, 3]
        direction = point - eye
        length = float(np.linalg.norm(direction))
        hit, _, _, _, obj, _ = scene.ray_cast(
            depsgraph, Vector(eye), Vector(direction / length), distance=length + 0.5
        )
        seen += bool(hit and obj is not None and obj.name == die.name)
    return seen / len(offsets)


def _resolution(
    scene: bpy.types.Scene, plan: ScenePlan, camera: geometry.Camera, max_side: int
) -> geometry.Camera:
    """The scene's camera rendering the nominal sensor shrunk to ``max_side`` instead."""
    width, height = plan.camera.sensor
    scale = min(1.0, max_side / max(width, height))
    width, height = round(width * scale), round(height * scale)
    scene.render.resolution_x, scene.render.resolution_y = width, height
    return replace(camera, width=width, height=height)


def _scaled(scene: bpy.types.Scene, camera: geometry.Camera, scale: float) -> geometry.Camera:
    """The scene's camera rendering ``scale`` times as many pixels a side."""
    width, height = round(camera.width * scale), round(camera.height * scale)
    scene.render.resolution_x, scene.render.resolution_y = width, height
    return replace(camera, width=width, height=height)


def _develop(path: Path, plan: ScenePlan, rng: np.random.Generator, max_side: int) -> np.ndarray:
    """The camera's own faults on the rendered frame: shake, sensor noise."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    cam = plan.camera
    if cam.shake_px > 0:
        scale = min(1.0, max_side / max(cam.sensor))
        length = max(1, round(cam.shake_px * scale))
        kernel = np.zeros((2 * length + 1, 2 * length + 1), np.float32)
        angle = rng.uniform(0, np.pi)
        c, s = math.cos(angle), math.sin(angle)
        cv2.line(
            kernel,
            (int(length - c * length), int(length - s * length)),
            (int(length + c * length), int(length + s * length)),
            1.0,
            1,
        )
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    if cam.noise > 0:
        noisy = image.astype(np.float32) + rng.normal(0, cam.noise, image.shape).astype(np.float32)
        image = np.clip(noisy, 0, 255).astype(np.uint8)
    return image


@dataclass
class _Staged:
    """A thrown, framed and lit scene, its clear dice labelled, before Cycles runs."""

    scene: bpy.types.Scene
    camera: geometry.Camera
    dice: list[RenderedDie]
    shapes: list[tuple[np.ndarray, np.ndarray]]  # each labelled die's pose and mesh points
    objects: list[bpy.types.Object]  # each labelled die
    dropped: int
    rng: np.random.Generator


def _stage(plan: ScenePlan, threads: int, max_side: int, samples: int) -> _Staged:
    """Build the plan's scene, throw, frame and light it, label every clear die and set
    Cycles up: everything a render needs but the pixels."""
    rng = np.random.default_rng([plan.seed, 3])
    scene = new_scene(threads)
    bpy.ops.rigidbody.world_add()
    extent = plan.tray_cm or float(
        np.clip(2.2 * math.sqrt(len(plan.dice)) * np.mean(plan.side_mm) / 10, 5, 25)
    )
    _tray(plan, rng, extent)
    _clutter(plan, rng, extent)
    dice = _throw(plan, rng, extent)
    settle(scene, dice, rng)
    level = [d for d in dice if _at_rest(np.array(d.matrix_world), extent)]
    for d in dice:
        if d not in level:
            d.hide_render = True
    camera, _, target = _camera(scene, plan, rng, level or dice, max_side)
    _lights(scene, plan, target, camera.matrix, rng)
    eye = camera.matrix[:3, 3]
    labelled, shown, objects = [], [], []
    for d, look, side_mm in zip(dice, plan.dice, plan.side_mm, strict=True):
        if d.hide_render:
            continue
        m = np.array(d.matrix_world)
        points = geometry.die_points(side_mm / 10, look.bevel, SEGMENTS)
        box = geometry.die_box(camera, m, points)
        x, y, w, h = box
        inside = x >= 0 and y >= 0 and x + w <= camera.width and y + h <= camera.height
        if not inside or _top_visible(scene, d, side_mm / 10, eye) < 0.6:
            d.hide_render = True
            continue
        value, _ = geometry.top_face(m[:3, :3])
        labelled.append(RenderedDie(value, look.face, box, look))
        shown.append((m, points))
        objects.append(d)
    scene.cycles.samples = samples
    scene.cycles.use_denoising = True
    scene.cycles.max_bounces = 8
    scene.cycles.transmission_bounces = 8
    scene.cycles.caustics_reflective = False
    scene.cycles.caustics_refractive = False
    scene.cycles.seed = plan.seed % 2**31  # Cycles takes a 32-bit seed
    scene.view_settings.view_transform = "AgX"
    scene.view_settings.exposure = float(rng.uniform(-0.5, 0.5))
    return _Staged(scene, camera, labelled, shown, objects, len(dice) - len(labelled), rng)


def render(
    plan: ScenePlan,
    *,
    samples: int = 16,
    threads: int = 1,
    max_side: int = MAX_SIDE,
    min_die: float = 0.0,
) -> Render:
    """Build the plan's scene, throw, frame, light and render it; label every clear die.

    ``min_die``: a photo whose dice's median side would be under this many px at
    ``max_side`` is rendered larger (``geometry.sharp_side``, up to SHARP_LIMIT), the same
    scene and light: small dice are then cut from real pixels, as a camera's are."""
    staged = _stage(plan, threads, max_side, samples)
    scene, camera, labelled = staged.scene, staged.camera, staged.dice
    side = geometry.sharp_side([max(d.box[2:]) for d in labelled], max_side, min_die, SHARP_LIMIT)
    if side > max_side:
        # the same view, more pixels: being inside the frame and seen do not change
        camera = _resolution(scene, plan, camera, side)
        labelled = [
            replace(die, box=geometry.die_box(camera, m, points))
            for die, (m, points) in zip(labelled, staged.shapes, strict=True)
        ]
        max_side = side
    with tempfile.TemporaryDirectory(prefix="render3d-") as folder:
        path = Path(folder) / "frame.png"
        scene.render.filepath = str(path)
        scene.render.image_settings.file_format = "PNG"
        bpy.ops.render.render(write_still=True)
        image = _develop(path, plan, staged.rng, max_side)
        seen = print_seen(scene, staged.objects, Path(folder) / "print.png", image)
    labelled = [replace(die, seen=s) for die, s in zip(labelled, seen, strict=True)]
    return Render(image, labelled, staged.dropped)


#: A face whose normal is within about 37 degrees of straight up is a die's top face.
TOP_NORMAL_Z = 0.8
#: Texels whose ink covers at least this share are print.
INK_COVER = 0.5


def _print_material(name: str, index: int, ink: bpy.types.Image | None) -> bpy.types.Material:
    """Flat emission: red (index + 1) / 255, green the ink's coverage, blue 1 on a face
    pointing up; all black for ``index`` -1 (a surface that only hides what is behind)."""
    n = _Nodes(name)
    emit = n.add("ShaderNodeEmission", Strength=1.0)
    n.link(emit.outputs[0], n.out.inputs["Surface"])
    if index < 0:
        emit.inputs["Color"].default_value = (0.0, 0.0, 0.0, 1.0)
        return n.material
    colour = n.add("ShaderNodeCombineXYZ", X=(index + 1) / 255.0)
    if ink is not None:
        tex = n.add("ShaderNodeTexImage", image=ink, interpolation="Closest")
        n.link(n.add("ShaderNodeUVMap").outputs[0], tex.inputs["Vector"])
        n.link(tex.outputs["Alpha"], colour.inputs["Y"])
    normal = n.add("ShaderNodeSeparateXYZ")
    n.link(n.add("ShaderNodeNewGeometry").outputs["Normal"], normal.inputs[0])
    up = n.add("ShaderNodeMath", operation="GREATER_THAN")
    n.link(normal.outputs["Z"], up.inputs[0])
    up.inputs[1].default_value = TOP_NORMAL_Z
    n.link(up.outputs[0], colour.inputs["Z"])
    n.link(colour.outputs[0], emit.inputs["Color"])
    return n.material


def _ink_image(die: bpy.types.Object) -> bpy.types.Image | None:
    for slot in die.material_slots:
        for node in slot.material.node_tree.nodes if slot.material else ():
            if node.type == "TEX_IMAGE" and node.image and node.image.name.startswith("ink-"):
                return node.image
    return None


def print_seen(
    scene: bpy.types.Scene, dice: list[bpy.types.Object], path: Path, photo: np.ndarray
) -> list[PrintSeen]:
    """Each labelled die's top face and print as ``photo`` shows them, from one more flat
    render of the same view (one sample a pixel, no lights): every surface emits its
    :func:`_print_material`, so a die's pixels, its top face's and its ink's are known
    exactly, whatever hides them. The rendered scene is spent afterwards."""
    inks = [_ink_image(d) for d in dice]
    black = _print_material("print-none", -1, None)
    for obj in scene.objects:
        if obj.type == "LIGHT":
            obj.hide_render = True
        for slot in getattr(obj, "material_slots", ()):
            slot.link = "OBJECT"
            slot.material = black
    for i, (die, ink) in enumerate(zip(dice, inks, strict=True)):
        own = _print_material(f"print-{i}", i, ink)
        for slot in die.material_slots:
            slot.material = own
    for node in scene.world.node_tree.nodes if scene.world and scene.world.node_tree else ():
        if node.type == "BACKGROUND":
            node.inputs["Strength"].default_value = 0.0
    scene.cycles.samples = 1
    scene.cycles.use_denoising = False
    scene.cycles.filter_width = 0.01
    scene.cycles.max_bounces = 0
    scene.camera.data.dof.use_dof = False
    scene.view_settings.view_transform = "Raw"
    scene.view_settings.exposure = 0.0
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_depth = "16"
    scene.render.filepath = str(path)
    bpy.ops.render.render(write_still=True)
    flat = cv2.imread(str(path), cv2.IMREAD_UNCHANGED).astype(np.float32) / 65535.0
    return print_seen_in(flat, photo, len(dice))


def print_seen_in(flat: np.ndarray, photo: np.ndarray, n: int) -> list[PrintSeen]:
    """:func:`print_seen`'s count over its flat render (BGR, 0..1) and the photo."""
    index = np.rint(flat[..., 2] * 255.0).astype(np.int32) - 1
    top = flat[..., 0] > 0.5
    ink = flat[..., 1] >= INK_COVER
    lab = cv2.cvtColor(photo.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    seen = []
    for i in range(n):
        face = (index == i) & top
        printed, plain = face & ink, face & ~ink
        contrast = 0.0
        if printed.any() and plain.any():
            apart = np.median(lab[printed], axis=0) - np.median(lab[plain], axis=0)
            contrast = float(np.linalg.norm(apart))
        seen.append(PrintSeen(int(face.sum()), int(printed.sum()), round(contrast, 1)))
    return seen


#: a close-up (``render_close_ups``) covers this many of its die's sides: the widest face
#: crop training cuts from it, turned by any angle, stays inside
CLOSE_UP_SPAN = 2.6
#: the dice's side in a throw's close-ups, px: drawn log-uniformly, one size a throw (the
#: reader's face crops are 48 px of 1.5 sides: dice of 32 px are cut at their own pixels)
CLOSE_UP_DIE = (16.0, 56.0)


def render_close_ups(
    plan: ScenePlan,
    *,
    samples: int = 8,
    threads: int = 1,
    die_px: tuple[float, float] = CLOSE_UP_DIE,
) -> list[Render]:
    """Each clear die of the plan's throw rendered alone: a square of CLOSE_UP_SPAN sides
    about it, from the photo's own camera, with the whole scene's light, shadows and
    neighbours, at the resolution that makes the die ``die_px`` wide.

    Cycles renders only that square (its render border), so a die's face crops cost a
    fraction of a whole photo's pixels (the floor between dice is most of a photo): 1.7
    times as many dice an hour as whole photos give (``render3d.md``, "Speed"). Each
    close-up's labels are its own die and any other whose centre lies in it."""
    staged = _stage(plan, threads, MAX_SIDE, samples)
    scene, rng = staged.scene, staged.rng
    lo, hi = die_px
    px = math.exp(rng.uniform(math.log(lo), math.log(hi)))
    n = max(8, round(CLOSE_UP_SPAN * px))
    scene.render.use_border = True
    scene.render.use_crop_to_border = True
    scene.render.image_settings.file_format = "PNG"
    shots = []
    with tempfile.TemporaryDirectory(prefix="render3d-") as folder:
        for k, die in enumerate(staged.dice):
            scale = px / max(die.box[2:])
            camera = _scaled(scene, staged.camera, scale)
            boxes = [geometry.die_box(camera, m, points) for m, points in staged.shapes]
            x, y, w, h = boxes[k]
            x0, y0 = round(x + w / 2 - n / 2), round(y + h / 2 - n / 2)
            if x0 < 0 or y0 < 0 or x0 + n > camera.width or y0 + n > camera.height:
                continue  # at the frame's edge: no square about it
            # Blender's border is in shares of the frame from the bottom left; a quarter
            # pixel in, so that neither rounding nor truncation moves it a pixel
            W, H = camera.width, camera.height
            scene.render.border_min_x = (x0 + 0.25) / W
            scene.render.border_max_x = (x0 + n + 0.25) / W
            scene.render.border_min_y = (H - y0 - n + 0.25) / H
            scene.render.border_max_y = (H - y0 + 0.25) / H
            path = Path(folder) / f"die{k}.png"
            scene.render.filepath = str(path)
            bpy.ops.render.render(write_still=True)
            # shake scaled to these pixels, at most the sensor's own (a close-up drawn
            # finer than the sensor resolves is sharper than the camera's photo anyway)
            image = _develop(path, plan, rng, max(W, H))
            if image.shape[:2] != (n, n):
                raise RuntimeError(
                    f"Cycles rendered a {image.shape[1]}x{image.shape[0]} square, not {n}"
                )
            shown = [
                replace(other, box=(bx - x0, by - y0, bw, bh))
                for other, (bx, by, bw, bh) in zip(staged.dice, boxes, strict=True)
                if 0 <= bx + bw / 2 - x0 < n and 0 <= by + bh / 2 - y0 < n
            ]
            shots.append(Render(image, shown, 0))
    return shots

"""Where a thrown die lies and what the camera makes of it, in plain numpy.

The Blender scene and the labels agree because both come from here: the die's mesh
(a cube with rounded edges), which face shows which value, which face points up after
a throw, and the pixel box of the die as a perspective camera projects it. None of this
needs Blender, so the label geometry is tested on any machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: The six faces of a die in its own frame: outward normal, the face's texture axes
#: (u to the right, v up, u x v = normal, so no face is mirrored) and the value printed
#: on it. Opposite faces sum to seven; 1, 2, 3 run anticlockwise round their corner.
FACES: tuple[tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int], int], ...] = (
    ((0, 0, 1), (1, 0, 0), (0, 1, 0), 1),
    ((1, 0, 0), (0, 1, 0), (0, 0, 1), 2),
    ((0, 1, 0), (-1, 0, 0), (0, 0, 1), 3),
    ((0, -1, 0), (1, 0, 0), (0, 0, 1), 4),
    ((-1, 0, 0), (0, -1, 0), (0, 0, 1), 5),
    ((0, 0, -1), (1, 0, 0), (0, -1, 0), 6),
)
NORMALS = np.array([f[0] for f in FACES], np.float64)
VALUES = np.array([f[3] for f in FACES], np.int64)
UP = np.array([0.0, 0.0, 1.0])
#: A die whose top face leans more than this off level rests on something (another die,
#: a wall, a coin): its top is not clear, so it gets no label and is taken out of the scene.
MAX_TILT_DEG = 20.0


@dataclass(frozen=True)
class Camera:
    """A pinhole camera as Blender defines one (sensor fit AUTO, square pixels).

    ``matrix`` is the camera's 4x4 world matrix: it looks down its own -z axis, +y up.
    """

    matrix: np.ndarray
    lens_mm: float
    sensor_mm: float
    width: int
    height: int

    def project(self, points: np.ndarray) -> np.ndarray:
        """Pixel coordinates (x right, y down) of world points (n, 3); they must lie in front."""
        rot = self.matrix[:3, :3]
        local = (np.asarray(points, np.float64) - self.matrix[:3, 3]) @ rot
        depth = -local[:, 2]
        if np.any(depth <= 0):
            raise ValueError("a point lies behind the camera")
        scale = self.lens_mm / self.sensor_mm * max(self.width, self.height)
        x = self.width / 2 + scale * local[:, 0] / depth
        y = self.height / 2 - scale * local[:, 1] / depth
        return np.stack([x, y], axis=1)


def bevel_steps(bevel: float, segments: int) -> np.ndarray:
    """Grid coordinates across a face (-1..1): ``segments`` steps in each rounded rim,
    one flat step between them; ``bevel`` is the rim's width as a fraction of a half side."""
    if not 0.0 < bevel < 1.0:
        raise ValueError(f"bevel must lie between 0 and 1, not {bevel}")
    rim = np.linspace(-1.0, -1.0 + bevel, segments + 1)
    return np.concatenate([rim, -rim[::-1]])


def rounded_cube(side: float, bevel: float, segments: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """The die's surface as six grids of points: (6, k, k, 3) positions and (6, k, k, 2) UVs.

    Each face's grid is the cube face pushed onto a cube with rounded edges of radius
    ``bevel * side / 2``; its UVs span the whole face, rims included, so the face's
    texture reaches the edge. Neighbouring grids share their border points.
    """
    half = side / 2.0
    radius = bevel * half
    steps = bevel_steps(bevel, segments)
    s, t = np.meshgrid(steps, steps, indexing="xy")
    points, uvs = [], []
    for normal, u, v, _ in FACES:
        n, ua, va = (np.asarray(a, np.float64) for a in (normal, u, v))
        cube = half * (n + s[..., None] * ua + t[..., None] * va)
        inner = np.clip(cube, -(half - radius), half - radius)
        offset = cube - inner
        length = np.linalg.norm(offset, axis=-1, keepdims=True)
        points.append(inner + radius * offset / length)
        uvs.append(np.stack([(s + 1) / 2, (t + 1) / 2], axis=-1))
    return np.array(points), np.array(uvs)


def die_points(side: float, bevel: float, segments: int = 4) -> np.ndarray:
    """Every vertex of the die's mesh (n, 3) in its own frame: the hull of the die."""
    points, _ = rounded_cube(side, bevel, segments)
    return np.unique(np.round(points.reshape(-1, 3), 9), axis=0)


def top_face(rotation: np.ndarray) -> tuple[int, float]:
    """The value on the face pointing up for a die turned by ``rotation`` (3x3, die to
    world), and how level that face lies (cosine of its normal with the world's up)."""
    rotation = np.asarray(rotation, np.float64)
    if rotation.shape != (3, 3):
        raise ValueError(f"rotation must be 3x3, not {rotation.shape}")
    ups = (rotation @ NORMALS.T).T @ UP
    best = int(np.argmax(ups))
    return int(VALUES[best]), float(ups[best])


def is_level(rotation: np.ndarray, max_tilt_deg: float = MAX_TILT_DEG) -> bool:
    """Whether the die lies flat enough that its top face is plain to read."""
    return bool(top_face(rotation)[1] >= np.cos(np.radians(max_tilt_deg)))


def die_box(
    camera: Camera, matrix: np.ndarray, points: np.ndarray
) -> tuple[float, float, float, float]:
    """The pixel box (x, y, w, h) that encloses the die: its mesh's vertices projected.

    A perspective camera maps the die (a convex solid) onto the hull of its projected
    vertices, so their bounds are the tightest box around every pixel of the die."""
    matrix = np.asarray(matrix, np.float64)
    world = points @ matrix[:3, :3].T + matrix[:3, 3]
    pixels = camera.project(world)
    x0, y0 = pixels.min(axis=0)
    x1, y1 = pixels.max(axis=0)
    return float(x0), float(y0), float(x1 - x0), float(y1 - y0)


def sharp_side(sides: Sequence[float], max_side: int, min_die: float, limit: int) -> int:
    """The long side to render a photo at: ``max_side``, or more where its dice's median
    side (``sides``, px at ``max_side``) would be under ``min_die`` px, enough to bring it
    there (rounded up to 32 px, at most ``limit``). A face crop cut from a die of a few
    pixels is an upscaled blur; a phone's or a Pi camera's is cut from real pixels."""
    if min_die <= 0 or not len(sides):
        return max_side
    median = float(np.median(sides))
    if median >= min_die:
        return max_side
    wanted = math.ceil(max_side * min_die / max(median, 1.0) / 32) * 32
    return max(max_side, min(limit, wanted))


def look_at(eye: np.ndarray, target: np.ndarray, roll: float = 0.0) -> np.ndarray:
    """A camera's 4x4 world matrix at ``eye`` looking at ``target``, turned ``roll`` radians
    about its view axis; straight down works too (the image's up is then world +y)."""
    eye = np.asarray(eye, np.float64)
    back = eye - np.asarray(target, np.float64)
    back /= np.linalg.norm(back)
    helper = np.array([0.0, 1.0, 0.0]) if abs(back[2]) > 0.999 else UP
    right = np.cross(helper, back)
    right /= np.linalg.norm(right)
    up = np.cross(back, right)
    c, s = np.cos(roll), np.sin(roll)
    right, up = c * right + s * up, -s * right + c * up
    matrix = np.eye(4)
    matrix[:3, 0], matrix[:3, 1], matrix[:3, 2], matrix[:3, 3] = right, up, back, eye
    return matrix


def rotation_about(axis: np.ndarray, angle: float) -> np.ndarray:
    """The 3x3 rotation by ``angle`` radians about ``axis`` (Rodrigues)."""
    k = np.asarray(axis, np.float64)
    k = k / np.linalg.norm(k)
    cross = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(angle) * cross + (1 - np.cos(angle)) * cross @ cross


def drop_turn(rng: np.random.Generator, version: int) -> tuple[str, tuple[float, ...]]:
    """How a die is turned before it is dropped: Blender's rotation mode and its values.

    From version 3 every turn is as likely (a unit quaternion w, x, y, z from four normal
    draws), so each face is as likely to start up, as on a fair throw. Versions 1 and 2
    drew three Euler angles, each uniformly, which starts the faces on the die's x axis
    (2 and 5) up half the time; the dice seldom tumble onto another face, so those
    versions show them half the time (``render3d.md``, "Versions"). They keep that draw,
    so that their photos stay as they were rendered."""
    if version < 3:
        return "XYZ", tuple(float(a) for a in rng.uniform(0, 2 * np.pi, 3))
    q = rng.normal(size=4)
    return "QUATERNION", tuple(float(v) for v in q / np.linalg.norm(q))


def turn_matrix(mode: str, values: Sequence[float]) -> np.ndarray:
    """The 3x3 rotation Blender makes of a ``drop_turn``: XYZ Euler angles (about x, then
    y, then z) or a unit quaternion (w, x, y, z)."""
    if mode == "XYZ":
        a, b, c = (float(v) for v in values)
        about_x = rotation_about(np.array([1.0, 0.0, 0.0]), a)
        about_y = rotation_about(np.array([0.0, 1.0, 0.0]), b)
        about_z = rotation_about(np.array([0.0, 0.0, 1.0]), c)
        return about_z @ about_y @ about_x
    if mode != "QUATERNION":
        raise ValueError(f"unknown rotation mode {mode!r}")
    w, x, y, z = (float(v) for v in values)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )

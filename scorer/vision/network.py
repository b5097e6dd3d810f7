"""The reader's ONNX networks: loaded on OpenCV's dnn module or onnxruntime behind the
same two calls (``setInput``, ``forward``), and the blobs they are fed.

Kept apart from the reader so that teaching, the set's own look and training read the
networks exactly as the reader does, without the reader's steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from scorer.errors import ScorerError
from scorer.vision.profile import EMBEDDING, FEATURES, GRID, OUTPUT


def described(net: cv2.dnn.Net, blob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A face network's probabilities and features of a blob of crops."""
    net.setInput(blob)
    layer = feature_layer(net)
    try:
        if layer == GRID:
            # the pooled features first, then the quarters (``profile.POOLED``)
            probs, pooled, quarters = net.forward([OUTPUT, FEATURES, GRID])
            n = len(probs)
            return probs, np.hstack([pooled.reshape(n, -1), quarters.reshape(n, -1)])
        return tuple(net.forward([OUTPUT, layer]))
    except cv2.error:
        raise ScorerError(
            f"this face network's features ({layer}) cannot be read on OpenCV "
            f"{cv2.__version__}: export it with a 'features' output to teach with it"
        ) from None


def feature_layer(net: cv2.dnn.Net) -> str:
    """The face network's features a profile compares: its file's third output, the last
    feature map by quarters (``GRID``), else its second, the pooled features before its
    last layer (``FEATURES``), which every OpenCV engine returns; in a file without
    either, the inner layer by its name (``EMBEDDING``) or the last Flatten of a network
    exported under other names, which only OpenCV's classic engine returns (gone in
    OpenCV 5.1)."""
    names = list(net.getLayerNames())
    outputs = net.getUnconnectedOutLayersNames()
    if GRID in names or GRID in outputs:
        return GRID
    if FEATURES in names or FEATURES in outputs:
        return FEATURES
    if EMBEDDING in names:
        return EMBEDDING
    flattens = [n for n in names if n.endswith("/Flatten")]
    if not flattens:
        raise ScorerError("faces.onnx has no Flatten layer of features: cannot teach with it")
    return flattens[-1]


def run_crops(net: cv2.dnn.Net | OnnxRuntimeNet, crops: Sequence[np.ndarray]) -> np.ndarray:
    """A crop network's outputs (n, k), in float64: one call for all crops, but one crop
    a call on cv2.dnn on one thread (the same outputs to the bit), where a crop costs no
    less in a batch and every change of batch size re-plans the network (issue 23). On
    more threads the batch stays whole for them to share (untimed: this machine's two
    cores are shared)."""
    blob = crops_blob(crops)
    if not isinstance(net, cv2.dnn.Net) or cv2.getNumThreads() > 1:
        net.setInput(blob)
        return np.array(net.forward(OUTPUT), np.float64).reshape(len(crops), -1)
    rows = []
    for i in range(len(crops)):
        net.setInput(blob[i : i + 1])
        rows.append(np.array(net.forward(OUTPUT), np.float64).reshape(-1))  # a copy: cv2 reuses
    return np.array(rows).reshape(len(crops), -1)


def crops_blob(crops: Sequence[np.ndarray]) -> np.ndarray:
    """Same-sized BGR crops as a network's input, ``cv2.dnn.blobFromImages(crops, 1 /
    255)`` to the bit (``board_blob``), and faster from 8 crops on, where OpenCV's blob
    grew to fresh pages from the system (200 against 26 us at 8 crops)."""
    stack = np.stack(crops)
    blob = np.empty((len(stack), 3, *stack.shape[1:3]), np.float32)
    np.multiply(stack.transpose(0, 3, 1, 2), BLOB_SCALE, out=blob, dtype=np.float32)
    return blob


def free_board_net(path: Path, backend: str) -> cv2.dnn.Net | OnnxRuntimeNet:
    """The finder for boards of any size: on cv2.dnn where the ONNX file fixes the board
    at 320 px (finders before the board was set free), which onnxruntime holds to."""
    net = load_net(path, backend)
    if isinstance(net, OnnxRuntimeNet) and not net.free_board:
        return load_net(path)
    return net


def load_net(path: Path, backend: str = "cv2") -> cv2.dnn.Net | OnnxRuntimeNet:
    """An ONNX network for ``cv2.dnn``, on OpenCV 5.0's classic engine where there is one
    (same outputs, faster on one core than its new default engine; OpenCV 4 has only the
    classic one, 5.1 only the new), or on onnxruntime behind the same two calls."""
    if backend == "onnxruntime":
        return OnnxRuntimeNet(path)
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if classic is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), engine=classic)


class OnnxRuntimeNet:
    """An ONNX network run by onnxruntime, with ``cv2.dnn.Net``'s ``setInput`` and
    ``forward``, on as many threads as OpenCV is set to (``cv2.setNumThreads``)."""

    def __init__(self, path: Path) -> None:
        try:
            import onnxruntime
        except ImportError:
            raise ScorerError(
                "the onnxruntime backend needs `pip install onnxruntime` (or use cv2)"
            ) from None
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = max(1, cv2.getNumThreads())
        options.inter_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(
            str(path), options, providers=["CPUExecutionProvider"]
        )
        shape = self._session.get_inputs()[0].shape
        self._input = self._session.get_inputs()[0].name
        #: the file's outputs, by name
        self.outputs = tuple(o.name for o in self._session.get_outputs())
        #: whether the file leaves the picture's size free (not numbers in its shape)
        self.free_board = not all(isinstance(d, int) for d in shape[2:])
        self._blob: np.ndarray | None = None

    def setInput(self, blob: np.ndarray) -> None:
        self._blob = np.ascontiguousarray(blob, np.float32)

    def forward(self, name: str | None = None) -> np.ndarray:
        """The output called ``name``, or the file's first output."""
        if self._blob is None:
            raise ScorerError("forward() before setInput()")
        return self._session.run(None if name is None else [name], {self._input: self._blob})[0]


#: what cv2.dnn.blobFromImage makes of a pixel: x / 255 as x times this, in float32
BLOB_SCALE = np.float32(1.0 / 255.0)


def board_blob(small: np.ndarray, rows: int, columns: int) -> np.ndarray:
    """The finder's input: ``small`` (BGR) at the top left of a grey (114) board of
    ``rows`` x ``columns``, as ``cv2.dnn.blobFromImage(board, 1 / 255)`` makes it, to the
    bit (every 8-bit level: tests/test_vision_reader.py), in a fraction of its time."""
    blob = np.empty((1, 3, rows, columns), np.float32)
    blob[...] = np.float32(114) * BLOB_SCALE
    h, w = small.shape[:2]
    np.multiply(small.transpose(2, 0, 1), BLOB_SCALE, out=blob[0, :, :h, :w], dtype=np.float32)
    return blob

"""Trained models (ONNX, run by OpenCV) and their model cards; ``train/`` rebuilds them."""

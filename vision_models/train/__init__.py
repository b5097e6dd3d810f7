"""Training code for the reader's models (torch, train-only): ``python -m vision_models.train``."""

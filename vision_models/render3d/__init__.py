"""Physically based training photos of thrown dice, rendered by Blender's Cycles (train-only).

``looks`` draws what a photo shows, ``geometry`` says where each die lies and what its
label is, ``faces`` paints the dice's faces, ``blender`` builds and renders the scene
(the only module that needs ``bpy``, the ``render3d`` extra), ``dataset`` writes the
resumable cache. See ``vision_models/render3d.md``.
"""

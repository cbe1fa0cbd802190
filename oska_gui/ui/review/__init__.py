"""The review screen: a finished game's analysis shown beside its board (the scene, its
layout and its drawing)."""

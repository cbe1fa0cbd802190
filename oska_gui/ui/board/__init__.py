"""The board as every screen shows it: its geometry and hit-testing, how each game looks,
its drawing, move animations, the keyboard cursor's steps and the least cell size."""

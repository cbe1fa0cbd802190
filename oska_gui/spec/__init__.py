"""The classic assignment functions: movegen, oskaplayer, hexapawn, move_maker, move_chooser."""

"""What every screen is built from, and no screen's own: the Canvas protocol, rectangles,
colours and their contrast, the type scale, widgets, the window's margin, input events,
the intents a screen hands the App, and the sounds. Nothing here imports a screen."""

"""The pygame front end: a window, event translation, a Canvas on a Surface, the loop."""

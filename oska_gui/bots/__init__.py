"""External bots, each in its own process tree, called without blocking and killed whole."""

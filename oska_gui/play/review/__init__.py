"""Reviewing a finished (or stopped) game: every position's win chance, best move and mark.

``chances`` turns search scores and exact values into win chances, ``marks`` grades the
moves played and sums each side's accuracy, ``result`` holds a review (``Review``, with
a JSON form to store it), and ``job`` runs the analysis of a record in time slices
(``ReviewJob``).
"""

"""The vocabulary every game shares (positions, moves, outcomes, sides) and the rules contract."""

"""The AI: one alpha-beta search, static evaluators, exact race knowledge and the solvers."""

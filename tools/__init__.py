"""Developer commands: benchmarks, strength tests, tuning and training of the evaluator."""

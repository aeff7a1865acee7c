print("bench-extract: not yet implemented")

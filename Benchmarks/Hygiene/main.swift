print("bench-hygiene: not yet implemented")

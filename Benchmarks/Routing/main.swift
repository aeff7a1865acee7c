print("bench-routing: not yet implemented")

print("openurld: not yet implemented")

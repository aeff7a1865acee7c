print("openurl: not yet implemented")

print("bench-chooser: not written yet")

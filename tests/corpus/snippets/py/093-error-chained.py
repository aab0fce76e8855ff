try:
    int("twelve")
except ValueError as e:
    raise RuntimeError("could not parse the count") from e

with open("notes.txt", "w") as f:
    f.write("first\nsecond\n")
with open("notes.txt") as f:
    print(f.read().splitlines())

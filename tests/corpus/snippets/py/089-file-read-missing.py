open("does-not-exist.txt").read()

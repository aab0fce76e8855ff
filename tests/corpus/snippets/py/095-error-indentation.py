if True:
print("misaligned")

# corpus: smoke
def ratio(a, b):
    return a / b

print("before")
ratio(1, 0)

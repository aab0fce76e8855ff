data = [1, 2, 0, 4]
print([10 // d for d in data])

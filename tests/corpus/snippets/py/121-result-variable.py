# corpus: smoke
values = [4, 8, 15, 16, 23, 42]
result = sum(values) / len(values)
print("mean computed")

values = [3, 1, 2]
assert sorted(values) == values, "not sorted"

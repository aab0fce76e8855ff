import itertools as it

print(list(it.combinations("abcd", 2)))
print(list(it.islice(it.cycle([1, 2, 3]), 7)))
print([(k, len(list(g))) for k, g in it.groupby("aaabccdd")])

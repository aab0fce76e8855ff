import numpy as np

people = np.array([("ann", 31), ("bob", 27)], dtype=[("name", "U8"), ("age", "i4")])
print(people[np.argsort(people["age"])])

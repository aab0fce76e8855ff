import numpy as np

a = np.arange(6).reshape(2, 3)
print(np.einsum("ij,ij->i", a, a))
print(np.datetime64("2024-03-01") - np.datetime64("2024-02-01"))
print(np.ma.masked_less(np.arange(5), 2).sum())

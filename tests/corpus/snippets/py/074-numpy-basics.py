# corpus: smoke
import numpy as np

a = np.arange(12).reshape(3, 4)
print(a)
print(a.sum(axis=0), a.mean(), a.T.shape)
print(a[a % 2 == 0])

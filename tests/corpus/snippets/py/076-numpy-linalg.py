import numpy as np

A = np.array([[3.0, 1.0], [1.0, 2.0]])
b = np.array([9.0, 8.0])
print(np.linalg.solve(A, b))
w, v = np.linalg.eigh(A)
print(np.round(w, 6))

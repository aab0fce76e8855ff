import numpy as np

np.set_printoptions(precision=3, suppress=True)
print(np.array([1 / 3, 2e-9, 12345.6789]))
print(np.linspace(0, 1, 25))

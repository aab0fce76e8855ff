import numpy as np
import matplotlib.pyplot as plt

n = np.logspace(1, 5, 20)
plt.loglog(n, n * np.log2(n), label="n log n")
plt.loglog(n, n ** 2, label="n^2")
plt.legend()

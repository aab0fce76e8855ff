import numpy as np
import matplotlib.pyplot as plt

rng = np.random.default_rng(5)
plt.hist(rng.normal(0, 1, 500), bins=30, density=True, alpha=0.5, label="a")
plt.hist(rng.normal(1, 0.5, 500), bins=30, density=True, alpha=0.5, label="b")
plt.legend()

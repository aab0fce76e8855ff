import numpy as np
import matplotlib.pyplot as plt

rng = np.random.default_rng(7)
x = rng.uniform(0, 1, 200)
y = rng.uniform(0, 1, 200)
sc = plt.scatter(x, y, c=x + y, s=40 * y, cmap="viridis", alpha=0.7)
plt.colorbar(sc, label="x + y")

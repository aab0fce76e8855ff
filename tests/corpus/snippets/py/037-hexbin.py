import numpy as np
import matplotlib.pyplot as plt

rng = np.random.default_rng(9)
x = rng.standard_normal(5000)
y = 0.5 * x + rng.standard_normal(5000)
plt.hexbin(x, y, gridsize=25)

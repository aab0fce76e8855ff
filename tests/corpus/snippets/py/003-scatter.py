import numpy as np
import matplotlib.pyplot as plt

rng = np.random.default_rng(1)
x, y = rng.normal(size=(2, 80))
plt.scatter(x, y)
print(round(float(np.corrcoef(x, y)[0, 1]), 4))

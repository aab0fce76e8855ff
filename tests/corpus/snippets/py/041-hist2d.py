import numpy as np
import matplotlib.pyplot as plt

rng = np.random.default_rng(0)
plt.hist2d(rng.normal(size=2000), rng.normal(size=2000), bins=30)
plt.colorbar()

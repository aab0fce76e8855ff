import numpy as np
import matplotlib.pyplot as plt

rng = np.random.default_rng(2)
plt.violinplot([rng.normal(0, s, 100) for s in (1, 2, 3)], showmeans=True)

import numpy as np
import matplotlib.pyplot as plt

rng = np.random.default_rng(11)
groups = [rng.normal(m, 1, 60) for m in (0, 1, 3)]
plt.boxplot(groups, labels=["low", "mid", "high"])
print([round(float(np.median(g)), 3) for g in groups])

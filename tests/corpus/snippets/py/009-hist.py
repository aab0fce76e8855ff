import numpy as np
import matplotlib.pyplot as plt

rng = np.random.default_rng(3)
data = rng.normal(100, 15, 1000)
counts, edges, _ = plt.hist(data, bins=20)
print(int(counts.sum()), len(edges))

import numpy as np
import matplotlib.pyplot as plt

x = np.arange(5)
y = x ** 1.5
plt.errorbar(x, y, yerr=0.3 * np.sqrt(y + 1), fmt="o-", capsize=3)

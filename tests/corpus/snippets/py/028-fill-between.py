import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(0, 4 * np.pi, 200)
plt.plot(x, np.sin(x))
plt.fill_between(x, np.sin(x) - 0.3, np.sin(x) + 0.3, alpha=0.3)

import numpy as np
import matplotlib.pyplot as plt

theta = np.linspace(0, 2 * np.pi, 300)
ax = plt.subplot(projection="polar")
ax.plot(theta, 1 + np.sin(6 * theta) / 3)

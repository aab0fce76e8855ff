import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(0, 5, 100)
y = np.cos(2 * np.pi * x) * np.exp(-x)
plt.plot(x, y)
plt.annotate("start", xy=(0, 1), xytext=(1, 0.8), arrowprops=dict(arrowstyle="->"))
plt.text(3, 0.5, "damped")

import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(-3, 3, 80)
X, Y = np.meshgrid(x, x)
Z = np.sin(X) * np.cos(Y)
cs = plt.contour(X, Y, Z, levels=8)
plt.clabel(cs, inline=True, fontsize=8)

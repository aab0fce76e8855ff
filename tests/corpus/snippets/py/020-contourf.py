import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(-2, 2, 60)
X, Y = np.meshgrid(x, x)
plt.contourf(X, Y, X ** 2 - Y ** 2, levels=12, cmap="coolwarm")
plt.colorbar()

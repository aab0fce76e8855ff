import numpy as np
import matplotlib.pyplot as plt

X, Y = np.meshgrid(np.arange(-2, 3), np.arange(-2, 3))
plt.quiver(X, Y, -Y, X)
plt.gca().set_aspect("equal")

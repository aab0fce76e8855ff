import numpy as np
import matplotlib.pyplot as plt

fig = plt.figure()
ax = fig.add_subplot(projection="3d")
x = np.linspace(-3, 3, 40)
X, Y = np.meshgrid(x, x)
ax.plot_surface(X, Y, np.sin(np.hypot(X, Y)), cmap="viridis")
ax.set_zlabel("z")

import numpy as np
import matplotlib.pyplot as plt

x = np.arange(10)
y = np.arange(6)
z = np.add.outer(y, x) % 4
plt.pcolormesh(x, y, z[:-1, :-1], shading="flat")

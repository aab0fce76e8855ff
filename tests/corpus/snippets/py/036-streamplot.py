import numpy as np
import matplotlib.pyplot as plt

Y, X = np.mgrid[-3:3:50j, -3:3:50j]
plt.streamplot(X, Y, -1 - X ** 2 + Y, 1 + X - Y ** 2, density=0.8)

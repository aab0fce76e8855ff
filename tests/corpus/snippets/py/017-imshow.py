import numpy as np
import matplotlib.pyplot as plt

y, x = np.mgrid[-2:2:100j, -2:2:100j]
z = np.exp(-(x ** 2 + y ** 2))
plt.imshow(z, cmap="magma", extent=(-2, 2, -2, 2))
plt.colorbar()

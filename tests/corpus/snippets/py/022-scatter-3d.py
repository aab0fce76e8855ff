import numpy as np
import matplotlib.pyplot as plt

rng = np.random.default_rng(4)
pts = rng.normal(size=(3, 100))
ax = plt.figure().add_subplot(projection="3d")
ax.scatter(*pts, c=pts[2])
print(pts.shape)

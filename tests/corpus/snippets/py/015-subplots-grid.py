import numpy as np
import matplotlib.pyplot as plt

fig, axes = plt.subplots(2, 2, figsize=(8, 6))
x = np.linspace(0, 2 * np.pi, 100)
for ax, f in zip(axes.flat, (np.sin, np.cos, np.tan, np.exp)):
    ax.plot(x, f(x))
    ax.set_title(f.__name__)
fig.tight_layout()

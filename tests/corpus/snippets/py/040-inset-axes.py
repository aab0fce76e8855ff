import numpy as np
import matplotlib.pyplot as plt

fig, ax = plt.subplots()
x = np.linspace(0, 10, 500)
ax.plot(x, np.sin(x) * x)
inset = ax.inset_axes([0.1, 0.6, 0.3, 0.3])
inset.plot(x[:50], np.sin(x[:50]) * x[:50])

import numpy as np
import matplotlib.pyplot as plt

x = np.arange(1, 11)
plt.plot(x, 10.0 ** x)
plt.yscale("log")
plt.grid(True, which="both")

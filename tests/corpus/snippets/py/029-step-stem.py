import numpy as np
import matplotlib.pyplot as plt

x = np.arange(8)
fig, (a, b) = plt.subplots(1, 2)
a.step(x, x % 3, where="mid")
b.stem(x, np.cos(x))

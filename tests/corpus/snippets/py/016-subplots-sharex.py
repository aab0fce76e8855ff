import numpy as np
import matplotlib.pyplot as plt

t = np.linspace(0, 1, 200)
fig, (top, bottom) = plt.subplots(2, 1, sharex=True)
top.plot(t, np.sin(20 * t))
bottom.plot(t, np.exp(-3 * t), color="red")
bottom.set_xlabel("seconds")

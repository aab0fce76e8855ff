import numpy as np
import matplotlib.pyplot as plt

t = np.arange(0, 5, 0.25)
for power in (1, 2, 3):
    plt.plot(t, t ** power, label=f"t^{power}")
plt.legend()
plt.xlabel("t")
plt.ylabel("value")

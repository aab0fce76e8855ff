# corpus: smoke
import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(0, 10, 50)
plt.plot(x, np.sin(x))
plt.title("A sine")
print("points:", len(x))

import numpy as np

x = np.arange(10)
y = 2 * x ** 2 - 3 * x + 1
print(np.round(np.polyfit(x, y, 2), 6))

import numpy as np

col = np.arange(3)[:, None]
row = np.arange(4)
print(col * 10 + row)

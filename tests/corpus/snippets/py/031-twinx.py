import numpy as np
import matplotlib.pyplot as plt

t = np.arange(1, 13)
fig, left = plt.subplots()
left.plot(t, t * 10, color="tab:blue")
right = left.twinx()
right.plot(t, 1 / t, color="tab:red")
left.set_xlabel("month")

# corpus: smoke
import os
import matplotlib.pyplot as plt

plt.plot([1, 3, 2])
plt.savefig("plot.png")
print(os.path.getsize("plot.png") > 1000)

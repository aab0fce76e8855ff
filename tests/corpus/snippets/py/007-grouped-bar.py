import numpy as np
import matplotlib.pyplot as plt

labels = ["Q1", "Q2", "Q3", "Q4"]
a = [20, 34, 30, 35]
b = [25, 32, 34, 20]
x = np.arange(len(labels))
fig, ax = plt.subplots()
ax.bar(x - 0.2, a, 0.4, label="north")
ax.bar(x + 0.2, b, 0.4, label="south")
ax.set_xticks(x, labels)
ax.legend()
print(sum(a), sum(b))

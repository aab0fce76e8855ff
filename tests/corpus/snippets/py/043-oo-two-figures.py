from matplotlib.figure import Figure
import matplotlib.pyplot as plt

detached = Figure()
detached.add_subplot().plot([1, 2])
managed, ax = plt.subplots()
ax.plot([2, 1])
print(len(plt.get_fignums()))

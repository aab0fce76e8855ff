import matplotlib.pyplot as plt

fig, ax = plt.subplots()
ax.axis("off")
ax.table(cellText=[["1", "2"], ["3", "4"]], colLabels=["a", "b"], loc="center")
fig.suptitle("A table")

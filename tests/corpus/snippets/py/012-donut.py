import matplotlib.pyplot as plt

fig, ax = plt.subplots()
ax.pie([3, 2, 1], wedgeprops=dict(width=0.4), labels=["a", "b", "c"])
ax.set_title("Donut")

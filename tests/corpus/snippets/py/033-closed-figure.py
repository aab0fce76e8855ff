import matplotlib.pyplot as plt

fig = plt.figure()
plt.plot([1, 2, 3])
plt.close(fig)
print("figures open:", plt.get_fignums())

import matplotlib.pyplot as plt

for i in range(5):
    plt.figure()
    plt.plot(range(i + 2))
    plt.title(f"figure {i}")
plt.show()
print(len(plt.get_fignums()))

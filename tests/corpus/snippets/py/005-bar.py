import matplotlib.pyplot as plt

fruit = ["apple", "pear", "plum", "fig"]
counts = [12, 7, 3, 9]
plt.bar(fruit, counts, color="tab:orange")
plt.title("Fruit")
for name, count in zip(fruit, counts):
    print(f"{name:>6} {'#' * count}")

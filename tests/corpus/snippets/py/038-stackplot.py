import matplotlib.pyplot as plt

years = [2020, 2021, 2022, 2023]
plt.stackplot(years, [1, 2, 3, 4], [2, 2, 2, 2], [0, 1, 1, 3], labels=["a", "b", "c"])
plt.legend(loc="upper left")

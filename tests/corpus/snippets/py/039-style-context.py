import matplotlib.pyplot as plt

with plt.style.context("ggplot"):
    plt.plot([1, 4, 9, 16], "o-")
    plt.title("ggplot style")
print(plt.rcParams["axes.facecolor"])

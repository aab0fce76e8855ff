import matplotlib.pyplot as plt

sizes = [45, 30, 15, 10]
plt.pie(sizes, labels=["rent", "food", "fun", "misc"], autopct="%1.0f%%")
plt.axis("equal")

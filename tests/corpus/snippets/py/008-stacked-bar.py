import matplotlib.pyplot as plt

days = ["Mon", "Tue", "Wed"]
work = [8, 7, 9]
play = [2, 3, 1]
plt.bar(days, work, label="work")
plt.bar(days, play, bottom=work, label="play")
plt.legend()

import matplotlib.pyplot as plt

langs = ["C", "Go", "Rust", "Zig"]
stars = [5.1, 3.3, 4.7, 1.2]
fig, ax = plt.subplots()
ax.barh(langs, stars)
ax.invert_yaxis()
ax.set_xlabel("thousands")

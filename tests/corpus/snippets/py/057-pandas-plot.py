import pandas as pd

df = pd.DataFrame({"a": [1, 3, 2, 5], "b": [2, 2, 3, 1]})
ax = df.plot(title="frame plot")
df.plot.bar()
print(type(ax).__name__)

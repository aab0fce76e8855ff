import pandas as pd

sizes = pd.Categorical(["m", "s", "l", "m"], categories=["s", "m", "l"], ordered=True)
s = pd.Series(sizes)
print(s.sort_values().tolist(), s.max())

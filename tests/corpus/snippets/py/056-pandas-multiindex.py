import pandas as pd

idx = pd.MultiIndex.from_product([["x", "y"], [1, 2]], names=["letter", "num"])
df = pd.DataFrame({"v": [10, 20, 30, 40]}, index=idx)
print(df)
print(df.unstack())

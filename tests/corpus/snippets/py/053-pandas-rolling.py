import pandas as pd

s = pd.Series([1, 3, 2, 6, 4, 8, 5])
print(s.rolling(3).mean().round(3).tolist())
print(s.expanding().max().tolist())

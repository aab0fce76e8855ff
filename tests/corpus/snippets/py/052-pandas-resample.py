import numpy as np
import pandas as pd

idx = pd.date_range("2024-01-01", periods=14, freq="D")
s = pd.Series(np.arange(14), index=idx)
print(s.resample("W").sum())

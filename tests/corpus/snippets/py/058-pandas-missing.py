import numpy as np
import pandas as pd

df = pd.DataFrame({"a": [1, np.nan, 3], "b": [None, "x", "y"]})
print(df.isna().sum().to_dict())
print(df.fillna({"a": 0, "b": "-"}))

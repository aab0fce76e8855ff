import numpy as np
import pandas as pd

df = pd.DataFrame(np.arange(60).reshape(3, 20), columns=[f"col{i}" for i in range(20)])
print(df)

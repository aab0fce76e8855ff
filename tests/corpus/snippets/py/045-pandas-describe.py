import numpy as np
import pandas as pd

rng = np.random.default_rng(12)
df = pd.DataFrame(rng.integers(0, 100, size=(20, 3)), columns=list("xyz"))
print(df.describe().round(2))

# corpus: smoke
import pandas as pd

df = pd.DataFrame({"city": ["Oslo", "Lima", "Pune"], "temp": [3.5, 19.0, 31.2], "rain": [True, False, False]})
print(df)
print(df.dtypes)

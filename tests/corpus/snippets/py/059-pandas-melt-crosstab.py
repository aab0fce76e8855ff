import pandas as pd

wide = pd.DataFrame({"id": [1, 2], "jan": [5, 6], "feb": [7, 8]})
long = wide.melt(id_vars="id", var_name="month", value_name="n")
print(long)
print(pd.crosstab(long.id, long.month))

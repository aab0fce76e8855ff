import pandas as pd

s = pd.Series(list("abracadabra"))
print(s.value_counts())

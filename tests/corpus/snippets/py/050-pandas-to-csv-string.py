import pandas as pd

df = pd.DataFrame({"n": [1, 2], "sq": [1, 4]})
print(df.to_csv(index=False), end="")
print(df.to_json(orient="records"))

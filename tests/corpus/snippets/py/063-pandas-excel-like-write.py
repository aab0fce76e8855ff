import pandas as pd

df = pd.DataFrame({"k": ["a", "b"], "v": [1.5, 2.5]})
df.to_json("data.json", orient="records")
df.to_pickle("data.pkl")
print(pd.read_json("data.json").equals(df), pd.read_pickle("data.pkl").v.sum())

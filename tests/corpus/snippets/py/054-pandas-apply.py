import pandas as pd

df = pd.DataFrame({"w": ["alpha", "be", "gamma"]})
df["len"] = df.w.apply(len)
df["upper"] = df.w.str.upper()
print(df.sort_values("len", ascending=False).to_string(index=False))

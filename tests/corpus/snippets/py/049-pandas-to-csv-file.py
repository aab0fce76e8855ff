# corpus: smoke
import pandas as pd

df = pd.DataFrame({"a": range(4), "b": list("wxyz")})
df.to_csv("out.csv", index=False)
print(open("out.csv").read())

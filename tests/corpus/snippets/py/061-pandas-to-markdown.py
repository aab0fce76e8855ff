# to_markdown needs the tabulate package, which this runtime lacks: an ImportError either way
import pandas as pd

print(pd.DataFrame({"a": [1]}).to_markdown())

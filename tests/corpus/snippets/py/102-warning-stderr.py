import warnings

warnings.warn("this is only a warning")
print("still runs")

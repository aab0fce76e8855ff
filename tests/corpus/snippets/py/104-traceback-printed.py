import traceback

try:
    {}["x"]
except KeyError:
    traceback.print_exc()
print("handled")

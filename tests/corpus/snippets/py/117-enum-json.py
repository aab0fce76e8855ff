import enum
import json

class Color(enum.Enum):
    RED = 1
    GREEN = 2

print(list(Color), Color(2).name)
print(json.dumps({"color": Color.RED.name, "values": [1.5, None, True]}, indent=2, sort_keys=True))

import csv
import json

with open("rows.csv", "w", newline="") as f:
    csv.writer(f).writerows([["a", 1], ["b", 2]])
json.dump({"ok": True, "n": [1, 2]}, open("data.json", "w"))
print(list(csv.reader(open("rows.csv"))), json.load(open("data.json")))

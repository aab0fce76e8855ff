import pandas as pd

people = pd.DataFrame({"id": [1, 2, 3], "name": ["ann", "bob", "cy"]})
orders = pd.DataFrame({"id": [1, 1, 3, 4], "item": ["pen", "ink", "cup", "hat"]})
print(people.merge(orders, on="id", how="left"))
print(pd.concat([people, people.assign(id=people.id + 10)], ignore_index=True))

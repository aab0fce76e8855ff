from dataclasses import dataclass, field

@dataclass(order=True)
class Item:
    price: float
    name: str = field(compare=False)

items = sorted([Item(3.5, "tea"), Item(1.25, "bun"), Item(2.0, "jam")])
print(items)
print(items[0] < items[1])

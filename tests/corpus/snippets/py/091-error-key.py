prices = {"tea": 2}
print(prices["coffee"])

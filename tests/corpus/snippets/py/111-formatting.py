pi = 3.14159265
print(f"{pi:.2f} {pi:10.4f}| {12345678:,} {0.25:%} {255:#x} {'left':<8}|")
print("%s has %d items" % ("cart", 3))
print("{name} is {age}".format(name="Ada", age=36))

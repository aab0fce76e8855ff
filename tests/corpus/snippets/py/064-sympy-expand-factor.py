# corpus: smoke
import sympy as sp

x, y = sp.symbols("x y")
e = sp.expand((x + y) ** 4)
print(e)
print(sp.factor(x ** 3 - y ** 3))

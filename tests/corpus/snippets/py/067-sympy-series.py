import sympy as sp

x = sp.symbols("x")
print(sp.series(sp.cos(x), x, 0, 8))

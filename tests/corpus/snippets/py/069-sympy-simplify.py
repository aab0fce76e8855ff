import sympy as sp

x = sp.symbols("x")
print(sp.simplify(sp.sin(x) ** 2 + sp.cos(x) ** 2))
print(sp.trigsimp(sp.sin(2 * x) / sp.cos(x)))

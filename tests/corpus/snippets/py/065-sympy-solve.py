import sympy as sp

x = sp.symbols("x")
print(sp.solve(x ** 2 - 5 * x + 6, x))
print(sp.solveset(sp.sin(x), x, sp.Interval(0, 7)))

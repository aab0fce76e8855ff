# A sympy session: symbolic algebra, calculus and equation solving.
import sympy as sp

x, y = sp.symbols("x y")
expr = sp.sin(x) * sp.exp(x)

print("f(x)        =", expr)
print("f'(x)       =", sp.diff(expr, x))
print("∫ f(x) dx   =", sp.integrate(expr, x))
print("series      =", sp.series(sp.cos(x), x, 0, 8))
print("x² - 5x + 6 = 0 →", sp.solve(x**2 - 5*x + 6, x))

result = sp.factor(x**3 - y**3)

import sympy as sp

M = sp.Matrix([[2, 1], [1, 3]])
print(M.det(), M.inv())
print(M.eigenvals())

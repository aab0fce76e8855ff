def matmul(a, b):
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]

m = [[1, 2], [3, 4]]
print(matmul(m, m), matmul(matmul(m, m), m))

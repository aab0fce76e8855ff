for i in range(2000):
    print(i, i * i)

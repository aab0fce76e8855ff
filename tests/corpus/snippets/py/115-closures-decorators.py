import functools

def counted(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        wrapper.calls += 1
        return fn(*args)
    wrapper.calls = 0
    return wrapper

@counted
def square(x):
    return x * x

print([square(i) for i in range(4)], square.calls, square.__name__)

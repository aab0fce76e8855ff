class Shape:
    def area(self):
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}(area={self.area():.2f})"

class Circle(Shape):
    def __init__(self, r):
        self.r = r

    def area(self):
        return 3.14159 * self.r ** 2

class Square(Shape):
    def __init__(self, s):
        self.s = s

    def area(self):
        return self.s ** 2

print(sorted([Circle(1), Square(2), Circle(0.5)], key=lambda s: s.area()))

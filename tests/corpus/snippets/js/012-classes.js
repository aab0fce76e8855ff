class Animal {
  #sound;
  static count = 0;
  constructor(name, sound) { this.name = name; this.#sound = sound; Animal.count++; }
  speak() { return `${this.name} says ${this.#sound}`; }
  get shout() { return this.speak().toUpperCase(); }
}
class Dog extends Animal {
  constructor(name) { super(name, "woof"); }
  speak() { return super.speak() + "!"; }
}
const d = new Dog("Rex");
console.log(d.speak(), d.shout, Animal.count, d instanceof Animal);

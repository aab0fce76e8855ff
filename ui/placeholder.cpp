// Replaced by the desktop client.
namespace sandpad::ui { int placeholder() { return 0; } }

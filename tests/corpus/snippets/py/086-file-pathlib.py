from pathlib import Path

p = Path("report.md")
p.write_text("# Title\n\nbody\n")
print(p.read_text().count("\n"), p.suffix, p.exists())

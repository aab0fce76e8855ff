import "node:fs";
undeclaredInModule = 1;

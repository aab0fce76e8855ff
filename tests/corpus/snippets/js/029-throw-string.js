throw "plain string";

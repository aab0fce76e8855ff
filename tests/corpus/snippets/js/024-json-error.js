JSON.parse("{ not json }");

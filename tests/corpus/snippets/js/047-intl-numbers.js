console.log(new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(1234.5));
console.log((0.1 + 0.2).toFixed(2), (1234.5678).toPrecision(6), Number("12px"), parseInt("12px", 10));

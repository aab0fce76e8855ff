const cfg = Object.freeze({ mode: "fast", nested: { n: 1 } });
cfg.mode = "slow";
cfg.extra = true;
cfg.nested.n = 2;
console.log(cfg.mode, cfg.extra, cfg.nested.n, Object.isFrozen(cfg));

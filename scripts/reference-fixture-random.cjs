// What both reference-fixture generators share: their command line (BUNDLE [--count N] [--seed S]) and a seeded
// random source (SplitMix32), so that the same seed writes the same fixture. A tool only.
'use strict';
module.exports = (argv) => {
  const args = argv.slice(2);
  const option = (name, fallback) => {
    const index = args.indexOf(name);
    return index < 0 ? fallback : Number(args[index + 1]);
  };
  const seed = option('--seed', 20261129);
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
  const integer = (low, high) => low + Math.floor(random() * (high - low + 1));
  const path = require('path');
  return {
    library: require(path.resolve(args[0])),
    // The library's version, from the bundle's name (scripts/iab-bundle: NAME-VERSION.cjs).
    libraryVersion: (path.basename(args[0]).match(/-(\d[\d.]*)\.cjs$/) || [null, '?'])[1],
    count: option('--count', 200),
    seed,
    random,
    integer,
    chance: (p) => random() < p,
    pick: (values) => values[integer(0, values.length - 1)],
  };
};

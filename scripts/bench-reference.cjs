// Times the IAB reference decoder, @iabtcf/core's TCString.decode, on the strings `webcmp bench --reference-samples`
// prints (one JSON object a line on standard input). Run by scripts/bench-reference; a measurement tool only.
//   node scripts/bench-reference.cjs BUNDLE < samples        → the figures as one JSON object on standard output
//   node scripts/bench-reference.cjs BUNDLE --first STRING   → one decode's time in this fresh process, in µs
// The median: after a warm-up of 300 calls of each string (so that V8's optimising compiler has run), 7 runs of
// enough calls to take ~50 ms each; the figure is the median run divided by its calls.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const [bundle, mode, firstString] = process.argv.slice(2);
const core = require(require('path').resolve(bundle));
const nowMicroseconds = () => Number(process.hrtime.bigint()) / 1000;

if (mode === '--first') {
  const start = nowMicroseconds();
  const model = core.TCString.decode(firstString);
  const elapsed = nowMicroseconds() - start;
  if (model.cmpId !== 300) { throw new Error('unexpected cmpId ' + model.cmpId); }
  process.stdout.write(String(elapsed));
  process.exit(0);
}

const samples = fs.readFileSync(0, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
let sink = 0;
const decode = (string) => { sink += core.TCString.decode(string).vendorConsents.maxId; };
for (const sample of samples) {
  const model = core.TCString.decode(sample.string);
  // The same string as ours: the reference reads what our encoder wrote.
  if (model.cmpId !== 300 || model.vendorConsents.maxId < 800) {
    throw new Error(sample.name + ': the reference decoded cmpId ' + model.cmpId + ', MaxVendorId ' + model.vendorConsents.maxId);
  }
  sample.vendorConsents = model.vendorConsents.size;
  sample.restrictions = model.publisherRestrictions.numRestrictions;
}
for (let i = 0; i < 300; i++) { for (const sample of samples) { decode(sample.string); } }
const results = samples.map((sample) => {
  let calls = 1;
  for (;;) {
    const start = nowMicroseconds();
    for (let i = 0; i < calls; i++) { decode(sample.string); }
    if (nowMicroseconds() - start >= 50000 || calls >= 1 << 20) { break; }
    calls *= 2;
  }
  const runs = [];
  for (let run = 0; run < 7; run++) {
    const start = nowMicroseconds();
    for (let i = 0; i < calls; i++) { decode(sample.string); }
    runs.push((nowMicroseconds() - start) / calls);
  }
  runs.sort((a, b) => a - b);
  const first = Number(execFileSync(process.execPath, [__filename, bundle, '--first', sample.string], { encoding: 'utf8' }));
  return {
    name: sample.name, characters: sample.string.length, string: sample.string,
    medianMicroseconds: runs[3], fastestMicroseconds: runs[0], slowestMicroseconds: runs[6], callsPerRun: calls,
    firstCallMicroseconds: first, vendorConsents: sample.vendorConsents, restrictions: sample.restrictions
  };
});
process.stdout.write(JSON.stringify({
  decoder: '@iabtcf/core 1.5.6 (TCString.decode; the v1.5.6 sources bundled by esbuild)',
  runtime: 'node ' + process.version, sink: sink % 2, strings: results
}, null, 1) + '\n');

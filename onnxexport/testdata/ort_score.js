// Scores the features in a JSON file ({"n":…, "dim":…, "x":[…]}) with an
// ONNX model under ONNX Runtime and prints {"score":[…], "logit":[…]}.
// Usage: node ort_score.js MODEL.onnx FEATURES.json
const ort = require('onnxruntime-node');
const fs = require('fs');

async function main() {
  const [model, features] = process.argv.slice(2);
  const f = JSON.parse(fs.readFileSync(features, 'utf8'));
  const session = await ort.InferenceSession.create(model);
  const x = new ort.Tensor('float64', Float64Array.from(f.x), [f.n, f.dim]);
  const out = await session.run({ features: x });
  process.stdout.write(JSON.stringify({
    inputs: session.inputNames, outputs: session.outputNames,
    score: Array.from(out.score.data), logit: Array.from(out.logit.data),
  }));
}
main().catch((e) => { console.error(String(e)); process.exit(1); });

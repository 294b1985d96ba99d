const tf = require('@tensorflow/tfjs');
require('@tensorflow/tfjs-backend-wasm');
const { stage } = require('./dist/backends/stage');
const { loadSample } = require('./dist/spec/onnx/support');
(async () => {
  await tf.setBackend('wasm');
  const { greedyDecode } = loadSample('rnn/src/rnn.ts');
  const H = 256;
  const w = tf.tidy(() => ({ wx: tf.randomNormal([H, H]).div(16), wh: tf.randomNormal([H, H]).div(16), b: tf.zeros([H]), embedding: tf.randomNormal([512, H]), wo: tf.randomNormal([H, 512]) }));
  const args = [tf.scalar(0, 'int32'), tf.scalar(128, 'int32'), -1, w];
  const s = stage(greedyDecode, { engine: "onnx" });
  console.log(s.inspect(...args).dump());
  const time = (f, n) => { for (let i = 0; i < 3; i++) f(); const t = process.cpuUsage(); for (let i = 0; i < n; i++) { const o = f(); o.length.dataSync(); tf.dispose(o); } const u = process.cpuUsage(t); return (u.user + u.system) / 1000 / n; };
  console.log('onnx ms', time(() => s(...args), 60));
})();

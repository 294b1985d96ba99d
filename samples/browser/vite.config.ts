import { defineConfig } from 'vite';
import autograph from 'autograph-ts/vite';

// Cross-origin isolation (SharedArrayBuffer), which onnxruntime-web and tfjs-backend-wasm need for threads.
const isolated = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  plugins: [autograph()],
  server: { headers: isolated },
  preview: { headers: isolated },
});

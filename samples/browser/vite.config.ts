import { defineConfig } from 'vite';
import autograph from 'autograph-ts/vite';

export default defineConfig({
  plugins: [autograph()],
});

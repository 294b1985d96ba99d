/** autograph-ts/esbuild: the autograph-ts plugin for Esbuild (bundler/plugin.mts). */
import { autographPlugin } from './plugin.mjs';

export type { AutographPluginOptions } from './plugin.mjs';
export default autographPlugin.esbuild;

/** autograph-ts/vite: the autograph-ts plugin for Vite (bundler/plugin.mts). */
import { autographPlugin } from './plugin.mjs';

export type { AutographPluginOptions } from './plugin.mjs';
export default autographPlugin.vite;

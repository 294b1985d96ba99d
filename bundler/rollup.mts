/** autograph-ts/rollup: the autograph-ts plugin for Rollup (bundler/plugin.mts). */
import { autographPlugin } from './plugin.mjs';

export type { AutographPluginOptions } from './plugin.mjs';
export default autographPlugin.rollup;

/** autograph-ts/webpack: the autograph-ts plugin for Webpack (bundler/plugin.mts). */
import { autographPlugin } from './plugin.mjs';

export type { AutographPluginOptions } from './plugin.mjs';
export default autographPlugin.webpack;

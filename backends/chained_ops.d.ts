// The chained-op typings (`x.cast()` & co.) for the builds that do not import @tensorflow/tfjs
// (tsconfig.esm.json). Resolved as a module, not as a path under node_modules, so that a checkout
// whose node_modules is a symbolic link sees one copy of tfjs-core's types.
import '@tensorflow/tfjs-core/dist/public/chained_ops/register_all_chained_ops';

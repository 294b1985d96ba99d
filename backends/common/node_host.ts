/** The Node-only host modules, for the backends (one owner: runtime/node_host.ts). */
export { nodeBuiltin, nodeRequire, notInNode } from '../../runtime/node_host';

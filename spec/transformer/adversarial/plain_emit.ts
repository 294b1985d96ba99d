/**
 * Plain `tsc` output of in-memory sources (no transformer): the reference the converted output of
 * tensor-free code must equal byte for byte. Lives in the shared harness.
 */
export { plainEmit } from '../../harness/compile';

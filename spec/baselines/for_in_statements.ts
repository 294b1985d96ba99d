import * as tf from '@tensorflow/tfjs';

// A for...in that a break under a tensor condition leaves: ag__.forInStmt with the break flag
// as its extra test.
export function keysUntil(o: Record<string, tf.Scalar>, limit: tf.Scalar): string[] {
  'use autograph';
  const out: string[] = [];
  for (const k in o) {
    if (o[k].greater(limit)) break;
    out.push(k);
  }
  return out;
}

// Nothing converted inside: the for...in stays native.
export function countKeys(o: Record<string, number>): number {
  'use autograph';
  let n = 0;
  for (const k in o) if (o[k] > 0) n++;
  return n;
}

/** The kernel lowering table: tfjs kernel name -> lowering, one file per family. */
import { convKernels } from './conv';
import { elementwiseKernels } from './elementwise';
import { linalgKernels } from './linalg';
import { normalizationKernels } from './normalization';
import type { LoweringTable } from './lowering';
import { reductionKernels } from './reduction';
import { shapeKernels } from './shape';

export const kernelLowerings: LoweringTable = {
  ...elementwiseKernels,
  ...reductionKernels,
  ...shapeKernels,
  ...linalgKernels,
  ...convKernels,
  ...normalizationKernels,
};

export type { KernelLowering, LoweringTable, Out } from './lowering';

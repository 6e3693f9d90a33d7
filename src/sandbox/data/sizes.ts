/**
 * How many records each generated dataset holds at a scale (the number of risks). Big datasets grow with
 * the scale; tasks and test plans stay fixed like standing data so write-back tests find the same ones.
 */
export interface Sizes {
  risks: number;
  controls: number;
  incidents: number;
  moisPerType: number;
  thirdParties: number;
  audits: number;
  kris: number;
  businessAssessments: number;
  dataManagement: number;
  tasks: number;
  testPlans: number;
}

export const MIN_SCALE = 5;
export const MAX_SCALE = 1_000_000;

export function sizesFor(scale: number): Sizes {
  const at = (divisor: number, min: number) => Math.max(min, Math.ceil(scale / divisor));
  return {
    risks: scale,
    controls: at(2, 5),
    incidents: at(4, 5),
    moisPerType: at(20, 3),
    thirdParties: at(20, 5),
    audits: at(100, 3),
    kris: at(50, 5),
    businessAssessments: at(100, 5),
    dataManagement: at(200, 3),
    tasks: 40,
    testPlans: 24,
  };
}

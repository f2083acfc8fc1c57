/** The words the benchmark server streams, in order, one per chunk. */
export const WORDS = ["alpha ", "beta ", "gamma ", "delta ", "epsilon ", "zeta ", "eta ", "theta "];

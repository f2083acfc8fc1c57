import type { Schema } from "./resolve.ts";

/** How wide a range is sampled when a schema leaves one or both sides open. */
const DEFAULT_SPAN = 100;

/** The lower or upper bound of a number schema; `open` when the bound itself is excluded. */
interface Bound {
  value: number;
  open: boolean;
}

/**
 * A number (or, with `integer`, a whole number) within the schema's `minimum`, `maximum`,
 * `exclusiveMinimum` and `exclusiveMaximum` (numbers since draft-06; draft-04's boolean form
 * is read too) and a multiple of `multipleOf`. Unbounded sides are sampled within
 * `DEFAULT_SPAN` of the other bound, or of 0. Bounds that leave no such number give the
 * closest one the mock can find rather than an error: a schema like that is a mistake the
 * caller's validator will point out.
 */
export function sampleNumber(schema: Schema, random: () => number, integer: boolean): number {
  const low = bound(schema.minimum, schema.exclusiveMinimum, -Infinity, (a, b) => a >= b);
  const high = bound(schema.maximum, schema.exclusiveMaximum, Infinity, (a, b) => a <= b);
  const multipleOf = typeof schema.multipleOf === "number" && Number.isFinite(schema.multipleOf) && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  let step = multipleOf ?? (integer ? 1 : undefined);
  // A whole number that is also a multiple of 2.5 is a multiple of 5: step by the smallest whole multiple.
  if (integer && step !== undefined && !Number.isInteger(step)) step = wholeMultiple(step) ?? 1;
  if (step === undefined) return sampleReal(low, high, random);

  const fits = (value: number) => value >= low.value && value <= high.value && !(low.open && value === low.value) && !(high.open && value === high.value);
  const at = (k: number) => roundToStep(k * step, step);
  // The range of k for which k * step is allowed, nudged by one where rounding landed just outside.
  let first = Math.ceil(low.value / step);
  let last = Math.floor(high.value / step);
  if (Number.isFinite(first) && !fits(at(first))) first++;
  if (Number.isFinite(last) && !fits(at(last))) last--;
  const [windowLow, windowHigh] = samplingWindow(low.value, high.value);
  const from = Math.max(first, Math.ceil(windowLow / step));
  const to = Math.min(last, Math.floor(windowHigh / step), from + Math.max(2, Math.floor(DEFAULT_SPAN / step)));
  if (from <= to) return at(from + Math.floor(random() * (to - from + 1)));
  // The window held no multiple (a step wider than it): the first allowed one outside it.
  if (Number.isFinite(first) && first <= last) return at(first);
  if (Number.isFinite(last) && first <= last) return at(last);
  return Number.isFinite(low.value) ? low.value : Number.isFinite(high.value) ? high.value : 0;
}

/** The tighter of the inclusive and exclusive bound on one side. */
function bound(inclusive: unknown, exclusive: unknown, none: number, tighter: (a: number, b: number) => boolean): Bound {
  let result: Bound = { value: none, open: false };
  if (isFiniteNumber(inclusive)) result = { value: inclusive, open: exclusive === true };
  if (isFiniteNumber(exclusive) && (result.value === none || tighter(exclusive, result.value))) result = { value: exclusive, open: true };
  return result;
}

/** A real number with at most two decimals inside the bounds, or the midpoint when no such number fits. */
function sampleReal(low: Bound, high: Bound, random: () => number): number {
  const fits = (value: number) => (low.open ? value > low.value : value >= low.value) && (high.open ? value < high.value : value <= high.value);
  const [from, to] = samplingWindow(low.value, high.value);
  for (let attempt = 0; attempt < 4; attempt++) {
    const value = Math.round((from + random() * (to - from)) * 100) / 100;
    if (fits(value)) return value;
  }
  const middle = from / 2 + to / 2;
  return fits(middle) ? middle : from;
}

/**
 * Where to sample within the bounds: all of them when they are at most `DEFAULT_SPAN` apart,
 * else a window that wide, 0 to 100 where the bounds allow it, else as close to 0 as they do.
 * Open sides and `z.int()`'s ±2^53 alike then give numbers a person would write.
 */
function samplingWindow(low: number, high: number): [number, number] {
  if (high - low <= DEFAULT_SPAN) return [low, high];
  const start = Math.min(Math.max(0, low), high - DEFAULT_SPAN);
  return [start, start + DEFAULT_SPAN];
}

/** The smallest whole multiple of `step` (up to 1000 × step), if any. */
function wholeMultiple(step: number): number | undefined {
  for (let times = 1; times <= 1000; times++) {
    const value = step * times;
    if (Math.abs(value - Math.round(value)) < 1e-9 * Math.max(1, value)) return Math.round(value);
  }
  return undefined;
}

/**
 * `value` rounded to as many decimals as `step` has: 3 × 0.1 is 0.30000000000000004 in
 * floating point, which decimal-aware validators (Zod's) reject as a multiple of 0.1, and
 * 0.3 is what a model would write.
 */
function roundToStep(value: number, step: number): number {
  if (Number.isInteger(step)) return value;
  return Number(value.toFixed(Math.min(20, decimals(step))));
}

function decimals(step: number): number {
  const [mantissa = "", exponent] = String(step).split("e");
  const fraction = mantissa.split(".")[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent ?? 0));
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

// Deep copies for documents crossing the engine boundary, so no caller can alias stored data.
// Plain objects and arrays are copied; Dates are copied (they are mutable); bson class instances
// are shared, since the engine never mutates them (structuredClone would strip their classes).

export function cloneValue<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(cloneValue) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = cloneValue((v as Record<string, unknown>)[k]);
  return out as T;
}

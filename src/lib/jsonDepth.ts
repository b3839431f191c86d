/**
 * Whether a JSON value nests deeper than `max` levels (a scalar is 0 levels, `{}` or `[]` one,
 * `{ "a": [1] }` two). Iterative, with an explicit stack, and it stops at the first level past
 * `max`: a client can send thousands of levels, and a recursive walk (JSON.stringify, a deep
 * equality, the BSON serializer) would overflow the call stack on them.
 */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    const depth = next.depth + 1;
    if (depth > max) return true;
    const children = Array.isArray(next.value) ? next.value : Object.values(next.value as Record<string, unknown>);
    for (const child of children)
      if (child !== null && typeof child === 'object') pending.push({ value: child, depth });
  }
  return false;
}

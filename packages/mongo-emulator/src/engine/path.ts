// Dotted-path reads over documents, as MongoDB resolves them.

/** The value at a dotted path without descending into arrays by position only (`a.0` works). */
export function getPath(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(part)) return undefined;
      cur = cur[Number(part)];
    } else {
      cur = (cur as Record<string, unknown>)[part];
    }
  }
  return cur;
}

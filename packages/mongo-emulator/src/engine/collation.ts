// Collation for string comparisons (locale, strength 1-3, numericOrdering) through Intl.Collator,
// which implements the same ICU rules mongod uses. Only top-level strings are collated; strings
// inside embedded documents and arrays compare by code point (a known simplification).
import { compareValues } from './compare.ts';
import type { Collation } from './types.ts';

export type ValueComparator = (a: unknown, b: unknown) => number;

const SENSITIVITY: Record<number, 'base' | 'accent' | 'variant'> = { 1: 'base', 2: 'accent', 3: 'variant' };

export function collationComparator(collation: Collation | undefined): ValueComparator {
  if (!collation || collation.locale === 'simple') return compareValues;
  // mongod names locales the ICU way (en_US); Intl wants BCP 47 tags (en-US).
  const collator = new Intl.Collator(collation.locale.replaceAll('_', '-'), {
    sensitivity: SENSITIVITY[collation.strength ?? 3] ?? 'variant',
    numeric: collation.numericOrdering ?? false,
    caseFirst: 'false',
  });
  return (a, b) => (typeof a === 'string' && typeof b === 'string' ? collator.compare(a, b) : compareValues(a, b));
}

// MongoDB regexes (PCRE with options i, m, s, x) as JS RegExps.
import { CommandError } from '../errors.ts';

const cache = new Map<string, RegExp>();
const CACHE_ENTRIES_MAX = 1000;

export function isRegexValue(v: unknown): boolean {
  return v instanceof RegExp || (v as { _bsontype?: string } | null)?._bsontype === 'BSONRegExp';
}

/** Strips unescaped whitespace and `#` comments, as PCRE's extended mode does. */
function stripExtended(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      out += ch + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
    } else if (ch === '[') {
      inClass = true;
      out += ch;
    } else if (ch === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i++;
    } else if (!/\s/.test(ch)) {
      out += ch;
    }
  }
  return out;
}

/** A RegExp for a string pattern, a BSONRegExp or a RegExp, with `$options` when given. */
export function toRegExp(value: unknown, options?: string): RegExp {
  let pattern: string;
  let flags: string;
  if (value instanceof RegExp) {
    pattern = value.source;
    flags = options ?? value.flags;
  } else if (typeof value === 'string') {
    pattern = value;
    flags = options ?? '';
  } else {
    const r = value as { pattern: string; options: string };
    pattern = r.pattern;
    flags = options ?? r.options;
  }
  const key = `${flags}/${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  for (const f of flags) {
    if (!'imsxu'.includes(f)) throw new CommandError('BadValue', `invalid flag in regex options: ${f}`);
  }
  const source = flags.includes('x') ? stripExtended(pattern) : pattern;
  let re: RegExp;
  try {
    re = new RegExp(source, `${[...new Set(flags.replace(/[xu]/g, ''))].join('')}u`);
  } catch {
    try {
      re = new RegExp(source, [...new Set(flags.replace(/[xu]/g, ''))].join(''));
    } catch (err) {
      throw new CommandError('Location51091', `Regular expression is invalid: ${(err as Error).message}`);
    }
  }
  if (cache.size >= CACHE_ENTRIES_MAX) cache.clear();
  cache.set(key, re);
  return re;
}

// Proves decimal128 arithmetic and comparison are exact, as mongod computes them with the IEEE
// 754-2008 decimal library: sums, differences and products rounded once to 34 digits (ties to
// even) with IEEE's preferred exponent, quotients too, overflow to Infinity, doubles turned into decimals with
// 15 significant digits, and comparisons that no double can blur.
import { Decimal128 } from 'bson';
import { describe, expect, it } from 'vitest';
import { compareValues } from '../../src/engine/compare.ts';
import { divide, fromDecimal128, fromDouble, toDecimal128 } from '../../src/engine/decimal128.ts';
import { addNumbers, multiplyNumbers, subtractNumbers } from '../../src/engine/numeric.ts';

const D = (text: string) => Decimal128.fromString(text);
const text = (value: unknown) => (value instanceof Decimal128 ? value.toString() : `not a decimal: ${String(value)}`);

describe('decimal128 arithmetic', () => {
  it('is exact where doubles are not, and keeps the preferred exponent', () => {
    expect(text(addNumbers(D('0.1'), D('0.2')))).toBe('0.3');
    expect(text(addNumbers(D('1.0'), D('2.00')))).toBe('3.00');
    expect(text(subtractNumbers(D('1.00'), D('0.01')))).toBe('0.99');
    expect(text(multiplyNumbers(D('1.10'), D('2.0')))).toBe('2.200');
    // 34 significant digits survive: a double keeps 15 to 17.
    expect(text(addNumbers(D('1234567890123456789012345678901233'), D('1')))).toBe(
      '1234567890123456789012345678901234',
    );
    expect(text(addNumbers(D('0.000000000000000000000000000000001'), D('1')))).toBe(
      '1.000000000000000000000000000000001',
    );
    // One digit more than 34 is rounded away, as IEEE says.
    expect(text(addNumbers(D('0.0000000000000000000000000000000001'), D('1')))).toBe(
      '1.000000000000000000000000000000000',
    );
  });

  it('rounds once to 34 digits, ties to even', () => {
    expect(text(addNumbers(D('1234567890123456789012345678901234'), D('0.5')))).toBe(
      '1234567890123456789012345678901234',
    );
    expect(text(addNumbers(D('1234567890123456789012345678901235'), D('0.5')))).toBe(
      '1234567890123456789012345678901236',
    );
    expect(text(addNumbers(D('1234567890123456789012345678901234'), D('0.51')))).toBe(
      '1234567890123456789012345678901235',
    );
    expect(text(addNumbers(D('9999999999999999999999999999999999'), 1))).toBe(
      '1.000000000000000000000000000000000E+34',
    );
  });

  it('turns ints and longs into decimals exactly, and doubles with 15 significant digits', () => {
    expect(text(addNumbers(D('0.5'), 9007199254740993n))).toBe('9007199254740993.5');
    expect(text(addNumbers(D('1'), 0.1))).toBe('1.100000000000000');
    expect(toDecimal128(fromDouble(0.1)).toString()).toBe('0.100000000000000');
    expect(toDecimal128(fromDouble(1 / 3)).toString()).toBe('0.333333333333333');
    // 1000000000000005 is a double exactly; to 15 digits the tie goes to even.
    expect(toDecimal128(fromDouble(1000000000000005)).toString()).toBe('1.00000000000000E+15');
    expect(toDecimal128(fromDouble(1000000000000015)).toString()).toBe('1.00000000000002E+15');
  });

  it('has IEEE zeros, infinities and NaN', () => {
    expect(text(addNumbers(D('-1'), D('1')))).toBe('0');
    expect(text(addNumbers(D('-0'), D('-0')))).toBe('-0');
    expect(text(multiplyNumbers(D('2.5'), 0))).toBe('0.0');
    expect(text(addNumbers(D('9.999999999999999999999999999999999E+6144'), D('1E+6111')))).toBe('Infinity');
    expect(text(addNumbers(D('Infinity'), D('-Infinity')))).toBe('NaN');
    expect(text(multiplyNumbers(D('Infinity'), D('0')))).toBe('NaN');
    expect(text(addNumbers(D('1E-6176'), D('1E-6176')))).toBe('2E-6176');
  });
});

describe('decimal128 division', () => {
  const quotient = (a: string, b: string) =>
    toDecimal128(divide(fromDecimal128(D(a)), fromDecimal128(D(b)))).toString();

  it('gives an exact quotient the exponent nearest the ideal one', () => {
    expect(quotient('1.00', '4')).toBe('0.25');
    expect(quotient('6.0', '2')).toBe('3.0');
    expect(quotient('2', '4')).toBe('0.5');
    expect(quotient('10.00', '4')).toBe('2.50');
  });

  it('rounds an inexact one once to 34 digits, ties to even', () => {
    expect(quotient('1', '3')).toBe('0.3333333333333333333333333333333333');
    expect(quotient('2', '3')).toBe('0.6666666666666666666666666666666667');
    expect(quotient('-1', '7')).toBe('-0.1428571428571428571428571428571429');
  });
});

describe('decimal128 comparison', () => {
  it('tells apart values no double can', () => {
    expect(compareValues(D('1234567890123456789.000000000000001'), D('1234567890123456789'))).toBe(1);
    expect(compareValues(D('9007199254740993'), 9007199254740992n)).toBe(1);
    expect(compareValues(D('9007199254740993'), 9007199254740993n)).toBe(0);
  });

  it('compares with a double through the double at 34 digits, as mongod does', () => {
    expect(compareValues(D('0.1'), 0.1)).toBe(-1);
    expect(compareValues(D('0.1000000000000000055511151231257827'), 0.1)).toBe(0);
    expect(compareValues(D('1.0'), 1)).toBe(0);
    expect(compareValues(D('-0'), 0)).toBe(0);
  });

  it('sorts NaN below every number and -Infinity', () => {
    expect(compareValues(D('NaN'), D('-Infinity'))).toBe(-1);
    expect(compareValues(D('NaN'), Number.NaN)).toBe(0);
    expect(compareValues(D('Infinity'), Number.MAX_VALUE)).toBe(1);
  });
});

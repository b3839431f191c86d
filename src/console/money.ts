// Money in its currency's units: the API gives integer minor units (cents for EUR, yen for JPY);
// the currency's own number of fraction digits (Intl) says where the point goes. The digits are
// moved as text, not divided as a float, so a large amount stays exact.
const moneyFormats = new Map<string, Intl.NumberFormat | null>();

function moneyFormat(currency: string): Intl.NumberFormat | null {
  let format = moneyFormats.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    } catch {
      format = null; // not an ISO 4217 code: shown as minor units with the code
    }
    moneyFormats.set(currency, format);
  }
  return format;
}

export function money(minor: number | string, currency: string): string {
  const format = moneyFormat(currency);
  if (!format) return `${minor} ${currency} (minor units)`;
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  const text = String(minor);
  const negative = text.startsWith('-');
  const whole = (negative ? text.slice(1) : text).padStart(digits + 1, '0');
  const decimal = digits === 0 ? whole : `${whole.slice(0, -digits)}.${whole.slice(-digits)}`;
  // Intl formats a decimal string exactly (ES2023's string form of format()).
  return format.format(`${negative ? '-' : ''}${decimal}` as unknown as number);
}

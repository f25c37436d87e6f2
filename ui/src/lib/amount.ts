// Money as typed at the counter: exact text, never a float. The core checks again.

/** Minor-unit digits of a currency (JPY 0, most 2). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * Normalises what a cashier typed ("12,5", " 12.50 ") to "12.50" in `currency`, or
 * null when it is not a positive amount with at most the currency's decimals.
 */
export function normaliseAmount(typed: string, currency: string): string | null {
  const digits = minorDigits(currency);
  const text = typed.trim().replace(',', '.');
  const pattern = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`);
  if (!pattern.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  const normal = digits === 0 ? String(BigInt(whole)) : `${BigInt(whole)}.${fraction.padEnd(digits, '0')}`;
  return /^0(\.0+)?$/.test(normal) ? null : normal;
}

/** Whether decimal text `a` is more than `b`, exactly (no floats). */
export function exceeds(a: string, b: string): boolean {
  const scale = (text: string) => {
    const [whole = '0', fraction = ''] = text.split('.');
    return { whole, fraction };
  };
  const x = scale(a);
  const y = scale(b);
  const digits = Math.max(x.fraction.length, y.fraction.length);
  const big = (v: { whole: string; fraction: string }) => BigInt(v.whole + v.fraction.padEnd(digits, '0'));
  return big(x) > big(y);
}

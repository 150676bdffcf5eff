/**
 * Intl formatters, built once per locale and options. Building one costs far
 * more than using it (tens of µs each): cards format several counters and a
 * time on every render, so fresh formatters made scrolling a long thread
 * spend most of its script time constructing them (measured by `npm run bench`).
 * Shared: the price labels main and the renderer both make come from here too.
 */
const numbers = new Map<string, Intl.NumberFormat>();
const dates = new Map<string, Intl.DateTimeFormat>();

export function numberFormat(locale: string | undefined, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale ?? ''}\u0000${options ? JSON.stringify(options) : ''}`;
  let f = numbers.get(key);
  if (!f) numbers.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

export function dateTimeFormat(locale: string | undefined, options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}\u0000${options ? JSON.stringify(options) : ''}`;
  let f = dates.get(key);
  if (!f) dates.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

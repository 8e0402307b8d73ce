// RFC 3339 date-time as ajv-formats' `date-time` accepts it: T, t or a space between date and
// time, any number of fraction digits, Z, z or an offset with or without its colon and minutes,
// and a leap second (:60).
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[Tt\s](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:[Zz]|([+-])(\d\d)(?::?(\d\d))?)$/;

/**
 * The instant a date-time string names, for the strings the published `date-time` format
 * accepts. `new Date` is not that reader: it gives Invalid Date for a leap second or an offset of
 * hours only (`+01`), both valid to ajv, so a handler would get a NaN Date for a string the
 * schema let through. A leap second is read as the first millisecond after it (JavaScript time has
 * none, and this keeps the order). Anything else is left to `new Date`.
 *
 * @example
 * parseDateTime('2016-12-31T23:59:60Z').toISOString(); // '2017-01-01T00:00:00.000Z'
 */
export function parseDateTime(text: string): Date {
  const parts = DATE_TIME.exec(text);
  if (!parts) return new Date(text);
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours = '0', offsetMinutes = '0'] = parts;
  const midnight = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  midnight.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  const minutes = Number(hour) * 60 + Number(minute) - offset;
  return new Date(midnight.getTime() + (minutes * 60 + Number(second)) * 1000 + Number(fraction.slice(0, 3).padEnd(3, '0')));
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const DAY = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;

const pad = (value: number) => String(value).padStart(2, '0');
const monthIndex = (name: string) => MONTHS.indexOf(name.slice(0, 3)) + 1;
const valid = (year: number, month: number, day?: number) => month >= 1 && month <= 12 && (day === undefined || (day >= 1 && day <= 31)) && year >= 0;
const key = (year: number, month: number, day?: number) => `${year}-${pad(month)}${day === undefined ? '' : `-${pad(day)}`}`;

/** Two-digit years as documents write them: 00–49 → 2000s, 50–99 → 1900s. */
const fullYear = (text: string) => (text.length === 2 ? (Number(text) < 50 ? 2000 : 1900) + Number(text) : Number(text));

/**
 * The calendar dates a date answer may mean, as `YYYY-MM-DD` (or `YYYY-MM` without a day):
 * `2020-03-12`, `March 12, 2020`, `12 March 2020`, `Mar. 2020`, and `03/12/2020`, which is
 * ambiguous and yields both `2020-03-12` and `2020-12-03`. Empty when the text is not a date.
 */
export function parseDate(text: string): string[] {
  const value = String(text).slice(0, 100).toLowerCase().replace(/,/g, ' ').replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  let match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(value);
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    return valid(year, month, day) ? [key(year, month, day)] : [];
  }
  match = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})$/.exec(value);
  if (match) {
    const [first, second, year] = [Number(match[1]), Number(match[2]), fullYear(match[3]!)];
    const options = new Set<string>();
    if (valid(year, first, second)) options.add(key(year, first, second));
    if (valid(year, second, first)) options.add(key(year, second, first));
    return [...options];
  }
  match = new RegExp(`^${MONTH} ${DAY} (\\d{4})$`).exec(value);
  if (match) {
    const [month, day, year] = [monthIndex(match[1]!), Number(match[2]), Number(match[3])];
    return valid(year, month, day) ? [key(year, month, day)] : [];
  }
  match = new RegExp(`^${DAY} (?:of )?${MONTH} (\\d{4})$`).exec(value);
  if (match) {
    const [day, month, year] = [Number(match[1]), monthIndex(match[2]!), Number(match[3])];
    return valid(year, month, day) ? [key(year, month, day)] : [];
  }
  match = new RegExp(`^${MONTH} (\\d{4})$`).exec(value);
  if (match) return [key(Number(match[2]), monthIndex(match[1]!))];
  return [];
}

/** Two date answers can mean the same day (or month). */
export function sameDate(a: string, b: string): boolean {
  const left = parseDate(a);
  if (left.length === 0) return false;
  const right = new Set(parseDate(b));
  return left.some((date) => right.has(date));
}

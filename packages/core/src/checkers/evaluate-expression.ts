type Token = { kind: 'number'; value: number } | { kind: 'operator'; value: string } | { kind: 'name'; value: string };

const NAMES = ['\\sqrt', 'sqrt', '\\frac', '\\dfrac', '\\tfrac', '\\pi', 'pi', '\\times', '\\cdot', '\\left', '\\right'];

function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === ' ') {
      index++;
      continue;
    }
    const number = /^(?:\d+(?:\.\d+)?|\.\d+)/.exec(text.slice(index, index + 40));
    if (number) {
      tokens.push({ kind: 'number', value: Number(number[0]) });
      index += number[0].length;
      continue;
    }
    const name = NAMES.find((candidate) => text.startsWith(candidate, index));
    if (name !== undefined) {
      index += name.length;
      if (name === '\\left' || name === '\\right') continue;
      if (name === '\\times' || name === '\\cdot') tokens.push({ kind: 'operator', value: '*' });
      else tokens.push({ kind: 'name', value: name.replace('\\', '').replace(/^[dt]frac$/, 'frac') });
      continue;
    }
    if (char === 'π') tokens.push({ kind: 'name', value: 'pi' });
    else if (char === '√') tokens.push({ kind: 'name', value: 'sqrt' });
    else if ('+-*/^(){}×·'.includes(char)) tokens.push({ kind: 'operator', value: char === '×' || char === '·' ? '*' : char === '{' ? '(' : char === '}' ? ')' : char });
    else return undefined;
    index++;
  }
  return tokens;
}

/**
 * Evaluates a small arithmetic expression as math answers write them: numbers, `+ - * / ^`,
 * parentheses or braces, `\sqrt{…}` / `sqrt(…)` / `√`, `\frac{…}{…}`, `\pi` / `π`, `\times`,
 * `\cdot` and implicit multiplication (`2\sqrt{3}`, `4π`). Returns `undefined` for anything else,
 * including text over 200 characters. Never throws.
 *
 * @example
 * evaluateExpression('2\\sqrt{3}') // 3.4641016151377544
 */
export function evaluateExpression(text: string): number | undefined {
  if (typeof text !== 'string' || text.length === 0 || text.length > 200) return undefined;
  const tokens = tokenize(text);
  if (tokens === undefined || tokens.length === 0) return undefined;
  let position = 0;
  const peek = () => tokens[position];
  const isOperator = (value: string) => {
    const token = peek();
    return token?.kind === 'operator' && token.value === value;
  };
  const expect = (value: string) => {
    if (!isOperator(value)) throw new SyntaxError(`expected ${value}`);
    position++;
  };

  // expression := term (('+' | '-') term)*
  const expression = (): number => {
    let value = term();
    while (isOperator('+') || isOperator('-')) {
      const operator = (tokens[position++] as { value: string }).value;
      const right = term();
      value = operator === '+' ? value + right : value - right;
    }
    return value;
  };
  // term := unary (('*' | '/' | implicit) unary)*
  const term = (): number => {
    let value = unary();
    for (;;) {
      const token = peek();
      if (token === undefined) return value;
      if (token.kind === 'operator' && (token.value === '*' || token.value === '/')) {
        position++;
        const right = unary();
        value = token.value === '*' ? value * right : value / right;
      } else if (token.kind === 'number' || token.kind === 'name' || (token.kind === 'operator' && token.value === '(')) {
        value *= unary();
      } else return value;
    }
  };
  const unary = (): number => {
    if (isOperator('-')) return (position++, -unary());
    if (isOperator('+')) return (position++, unary());
    return power();
  };
  // power := primary ('^' unary)?
  const power = (): number => {
    const base = primary();
    if (isOperator('^')) {
      position++;
      return base ** unary();
    }
    return base;
  };
  const primary = (): number => {
    const token = tokens[position++];
    if (token === undefined) throw new SyntaxError('unexpected end');
    if (token.kind === 'number') return token.value;
    if (token.kind === 'name') {
      if (token.value === 'pi') return Math.PI;
      if (token.value === 'sqrt') return Math.sqrt(primary());
      if (token.value === 'frac') {
        const numerator = group();
        return numerator / group();
      }
    }
    if (token.kind === 'operator' && token.value === '(') {
      const value = expression();
      expect(')');
      return value;
    }
    throw new SyntaxError(`unexpected ${token.value}`);
  };
  const group = (): number => {
    expect('(');
    const value = expression();
    expect(')');
    return value;
  };

  try {
    const value = expression();
    return position === tokens.length && Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

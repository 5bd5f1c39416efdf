/**
 * The shortest plain text a regular expression of the OpenAPI document accepts, for the API page's
 * examples: each alternation takes its first branch, each repetition its least count, each class its
 * first character. It reads literals, escapes (`\d`, `\w`, `\s`, an escaped sign), classes with
 * ranges, groups, alternation and quantifiers; anything else (a negated class, a look-around, a
 * back-reference) throws, and so does a result the expression itself refuses.
 */

const CLASS_ESCAPES: Record<string, string> = {
  // A digit is 1: a number of one digit that is neither zero nor led by one, which few readers refuse.
  d: "1",
  w: "a",
  s: " ",
};

export function exampleMatching(pattern: string): string {
  const reader = new PatternReader(pattern);
  const example = reader.alternation();
  if (!reader.done()) throw reader.unsupported();
  if (!new RegExp(pattern, "u").test(example)) throw new Error(`/${pattern}/ refuses its own example ${example}`);
  return example;
}

class PatternReader {
  private position = 0;

  constructor(private readonly pattern: string) {}

  done() {
    return this.position >= this.pattern.length;
  }

  unsupported() {
    return new Error(`The API page cannot make an example of /${this.pattern}/ at ${this.position}`);
  }

  /** `a|b|c`: the first branch's example; the others are read past. */
  alternation(): string {
    const first = this.sequence();
    while (this.peek() === "|") {
      this.position += 1;
      this.sequence();
    }
    return first;
  }

  private sequence(): string {
    let text = "";
    while (!this.done() && this.peek() !== "|" && this.peek() !== ")") {
      const atom = this.atom();
      text += atom.repeat(this.leastCount());
    }
    return text;
  }

  private atom(): string {
    const character = this.next();
    switch (character) {
      case "^":
      case "$":
        return "";
      case "(":
        return this.group();
      case "[":
        return this.characterClass();
      case "\\":
        return this.escape();
      case ".":
        return "a";
      case "*":
      case "+":
      case "?":
      case "{":
      case ")":
      case "]":
        this.position -= 1;
        throw this.unsupported();
      default:
        return character;
    }
  }

  private group(): string {
    if (this.peek() === "?") {
      if (this.pattern.slice(this.position, this.position + 2) !== "?:") throw this.unsupported();
      this.position += 2;
    }
    const text = this.alternation();
    if (this.next() !== ")") throw this.unsupported();
    return text;
  }

  /** `[A-Za-z0-9_-]`: its first character; the rest is read past. */
  private characterClass(): string {
    if (this.peek() === "^") throw this.unsupported();
    let first: string | undefined;
    while (this.peek() !== "]") {
      if (this.done()) throw this.unsupported();
      const character = this.next() === "\\" ? this.escape() : this.pattern[this.position - 1];
      first ??= character;
      // A range `a-z` starts at its first character, already taken; `-` before `]` is a literal.
      if (this.peek() === "-" && this.pattern[this.position + 1] !== "]") this.position += 2;
    }
    this.position += 1;
    if (first === undefined) throw this.unsupported();
    return first;
  }

  private escape(): string {
    const character = this.next();
    if (character in CLASS_ESCAPES) return CLASS_ESCAPES[character];
    if (/[\p{L}\p{N}]/u.test(character)) {
      this.position -= 1;
      throw this.unsupported();
    }
    return character;
  }

  /** A quantifier's least count, 1 without one; a lazy `?` after it changes nothing here. */
  private leastCount(): number {
    const character = this.peek();
    let count = 1;
    if (character === "*" || character === "?") count = 0;
    else if (character === "+") count = 1;
    else if (character === "{") {
      const match = /^\{(\d+)(,\d*)?\}/.exec(this.pattern.slice(this.position));
      if (!match) throw this.unsupported();
      this.position += match[0].length - 1;
      count = Number(match[1]);
    } else return 1;
    this.position += 1;
    if (this.peek() === "?") this.position += 1;
    return count;
  }

  private peek(): string | undefined {
    return this.pattern[this.position];
  }

  private next(): string {
    if (this.done()) throw this.unsupported();
    return this.pattern[this.position++];
  }
}

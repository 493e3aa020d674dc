/**
 * Where JSON text stops being JSON: the offset of the first character a JSON parser cannot accept (the text's length
 * when it ends too early), or undefined when it is valid. For logging a bad value without quoting it: V8's own
 * message quotes the text around the error, and a secret configured as JSON would end up in the log
 * (docs/decisions.md, "External identity").
 */
export function jsonSyntaxErrorAt(text: string): number | undefined {
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const HEX4 = /[0-9a-fA-F]{4}/y;
  let i = 0;
  const stop = (): never => {
    throw new JsonStop(i);
  };
  const space = () => {
    while (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r") i++;
  };
  const expect = (ch: string) => {
    if (text[i] !== ch) stop();
    i++;
  };
  const word = (w: string) => {
    for (const ch of w) expect(ch);
  };
  const string = () => {
    expect('"');
    for (;;) {
      if (i >= text.length) stop();
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) stop();
      if (c !== 0x5c) {
        i++;
        continue;
      }
      i++;
      const escape = text[i];
      if (escape === "u") {
        HEX4.lastIndex = i + 1;
        if (!HEX4.test(text)) stop();
        i += 5;
      } else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) i++;
      else stop();
    }
  };
  const member = () => {
    space();
    string();
    space();
    expect(":");
  };
  const scalar = () => {
    const c = text[i];
    if (c === '"') string();
    else if (c === "t") word("true");
    else if (c === "f") word("false");
    else if (c === "n") word("null");
    else {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) stop();
      i = NUMBER.lastIndex;
    }
  };
  // A loop over an explicit stack, not recursion: deep nesting cannot overflow the scanner.
  const stack: ("}" | "]")[] = [];
  try {
    let wantValue = true;
    for (;;) {
      space();
      if (wantValue) {
        const c = text[i];
        if (c === "{" || c === "[") {
          i++;
          space();
          const close = c === "{" ? "}" : "]";
          if (text[i] === close) {
            i++;
            wantValue = false;
          } else {
            stack.push(close);
            if (close === "}") member();
          }
          continue;
        }
        scalar();
        wantValue = false;
        continue;
      }
      const close = stack.at(-1);
      if (close === undefined) break;
      if (text[i] === ",") {
        i++;
        if (close === "}") member();
        wantValue = true;
        continue;
      }
      expect(close);
      stack.pop();
    }
    return i < text.length ? i : undefined;
  } catch (err) {
    if (err instanceof JsonStop) return err.at;
    throw err;
  }
}

class JsonStop {
  constructor(readonly at: number) {}
}
